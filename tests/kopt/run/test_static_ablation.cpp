// What kopt static says of a method the ablation measured
// (run/static_checks.hpp ablation_notes; docs/static-checks.md, "Ablation"),
// and of a family's claim that none of its selected points has
// (family_claim_notes).
#include <gtest/gtest.h>

#include "kopt/run/static_checks.hpp"

namespace kopt::test {
namespace {

sass::signature_result claim(const std::string& method, bool found) {
  sass::signature_result s;
  s.m_signature = {method, "SHFL", "METHODS"};
  s.m_status = found ? sass::signature_result::status::found : sass::signature_result::status::missing;
  return s;
}

ablation_method measured(const std::string& method, const std::string& cls, const std::string& without) {
  ablation_method m;
  m.m_method = method;
  m.m_class = cls;
  m.m_sass_without = without;
  return m;
}

TEST(static_ablation, an_effective_method_whose_signature_goes_is_confirmed) {
  ablation_result a;
  a.m_methods = {measured("warp_shuffle", k_ablation_effective, "absent"),
                 measured("cp_async", k_ablation_effective, "present"),
                 measured("ldmatrix", k_ablation_ineffective, "absent")};
  const std::vector<std::string> notes =
      ablation_notes(a, {claim("warp_shuffle", true), claim("cp_async", true), claim("ldmatrix", true),
                         claim("tma", true)});
  ASSERT_EQ(notes.size(), 3u);  // tma: not ablated, no note
  EXPECT_EQ(notes[0], "ablation: warp_shuffle effective; its signature is in the variant and absent without it: confirmed");
  EXPECT_NE(notes[1].find("remains without it"), std::string::npos) << notes[1];
  EXPECT_EQ(notes[1].find("confirmed"), std::string::npos) << notes[1];
  EXPECT_EQ(notes[2], "ablation: ldmatrix ineffective");
}

TEST(static_ablation, a_signature_missing_from_the_variant_confirms_nothing) {
  ablation_result a;
  a.m_methods = {measured("warp_shuffle", k_ablation_effective, "absent")};
  const std::vector<std::string> notes = ablation_notes(a, {claim("warp_shuffle", false)});
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].find("confirmed"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("attributed"), std::string::npos) << notes[0];
}

TEST(static_family, a_method_no_champion_has_is_named_with_the_points_searched) {
  variant_decl decl;
  decl.m_name = "v8";
  family_decl& family = decl.m_family.emplace();
  family.m_champions = std::vector<std::string>{"v8_p0", "v8_p4", "v8_p4"};
  const std::vector<std::string> notes = family_claim_notes(decl, {claim("cp_async", false), claim("tma", true)});
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "v8 is a family: its METHODS are checked in the code its dispatch runs, the selected point(s) "
            "v8_p0, v8_p4; none of them has cp_async: the selection serves only points without it (drop the "
            "claim, or select points that use it)");
}

TEST(static_family, no_note_without_a_dispatch_or_for_a_plain_variant) {
  variant_decl plain;
  plain.m_name = "v3";
  EXPECT_TRUE(family_claim_notes(plain, {claim("cp_async", false)}).empty());
  variant_decl unselected;
  unselected.m_name = "v8";
  unselected.m_family.emplace();
  EXPECT_TRUE(family_claim_notes(unselected, {claim("cp_async", false)}).empty());
}

}  // namespace
}  // namespace kopt::test
