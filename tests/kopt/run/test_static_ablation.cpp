// What kopt static says of a method the ablation measured
// (run/static_checks.hpp ablation_notes; docs/static-checks.md, "Ablation").
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

}  // namespace
}  // namespace kopt::test
