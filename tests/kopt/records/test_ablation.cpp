// The record's ablation (records/ablation.hpp): written and read back, and
// a record without one reads as before.
#include <gtest/gtest.h>

#include "kopt/records/record.hpp"
#include "kopt/report/report_model.hpp"

namespace kopt::test {
namespace {

ablation_result sample() {
  ablation_result a;
  a.m_utc = "2026-11-24T15:00:00Z";
  a.m_source_sha256 = "abc";
  a.m_repetitions = 3;
  ablation_method m;
  m.m_method = "cache_blocking";
  m.m_macro = "BLOCKED";
  m.m_impl = "v0__no_cache_blocking";
  m.m_class = k_ablation_effective;
  m.m_detail = "slower without it";
  m.m_change = 2.5;
  m.m_noise = 0.01;
  m.m_shapes.push_back({"n=1", 100, 350, 250, 2.5, 0.01, std::nullopt, "SLOWER"});
  a.m_methods.push_back(m);
  ablation_method f;
  f.m_method = "loop_interchange";
  f.m_macro = "NEEDED";
  f.m_impl = "v0__no_loop_interchange";
  f.m_class = k_ablation_failed;
  f.m_failure = "build";
  f.m_detail = "error: #error";
  a.m_methods.push_back(f);
  return a;
}

TEST(ablation, round_trips_through_json) {
  const json doc = to_json(sample());
  const ablation_result back = ablation_from_json(json_reader(doc, "r.json"));
  EXPECT_EQ(to_json(back), doc);
  ASSERT_NE(back.find("loop_interchange"), nullptr);
  EXPECT_EQ(back.find("loop_interchange")->m_failure, "build");
  EXPECT_EQ(back.find("swizzle"), nullptr);
}

TEST(ablation, a_family_names_the_point_that_served_each_shape) {
  ablation_result a = sample();
  a.m_methods[0].m_shapes[0].m_point = "v1_p5";
  const json doc = to_json(a);
  EXPECT_EQ(doc["methods"][0]["shapes"][0]["point"], "v1_p5");
  EXPECT_TRUE(to_json(sample())["methods"][0]["shapes"][0]["point"].is_null()) << "a variant that is not a family has none";
  const ablation_result back = ablation_from_json(json_reader(doc, "r.json"));
  EXPECT_EQ(back.m_methods[0].m_shapes[0].m_point, "v1_p5");
  EXPECT_NE(render_ablation_markdown(back).find("| n=1 (v1_p5) |"), std::string::npos) << render_ablation_markdown(back);
  EXPECT_NE(render_ablation_html(back).find("<td>n=1 (v1_p5)</td>"), std::string::npos);
}

TEST(ablation, an_unknown_class_names_the_field) {
  json doc = to_json(sample());
  doc["methods"][0]["class"] = "great";
  try {
    (void)ablation_from_json(json_reader(doc, "r.json"));
    FAIL() << "accepted class 'great'";
  } catch (const format_error& e) {
    EXPECT_NE(std::string(e.what()).find("r.json: /methods/0/class"), std::string::npos) << e.what();
  }
}

TEST(ablation, a_missing_key_names_the_path) {
  json doc = to_json(sample());
  doc["methods"][0]["shapes"][0].erase("without_ns");
  EXPECT_THROW((void)ablation_from_json(json_reader(doc, "r.json")), format_error);
}

}  // namespace
}  // namespace kopt::test
