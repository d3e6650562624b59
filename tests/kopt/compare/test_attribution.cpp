// The attribution of switchable METHODS (compare/attribution.hpp): the
// classes come from kopt compare's verdict of "without" against "with".
#include <gtest/gtest.h>

#include "kopt/compare/attribution.hpp"
#include "kopt/report/report_model.hpp"

namespace kopt::test {
namespace {

timing_point point(const std::string& impl, const std::string& shape, double median_ns, double noise) {
  timing_point p{impl, shape, {}};
  p.m_stats.m_median_ns = median_ns;
  p.m_stats.m_noise = noise;
  p.m_stats.m_samples = 100;
  return p;
}

ablation_outcome outcome(const std::string& method, std::optional<std::string> failure = std::nullopt) {
  return {method_switch{method, "M_" + method, "v1__no_" + method, "k_kopt_v1__no_" + method, {}}, failure,
          failure ? "it failed" : ""};
}

std::vector<timing_point> points() {
  return {
      point("v1", "n=1", 100, 0.005),           point("v1", "n=2", 200, 0.005),
      point("v1__no_fast", "n=1", 180, 0.005),  point("v1__no_fast", "n=2", 390, 0.005),  // ~1.9x slower
      point("v1__no_noop", "n=1", 101, 0.005),  point("v1__no_noop", "n=2", 199, 0.005),  // within 2 %
      point("v1__no_costs", "n=1", 80, 0.005),  point("v1__no_costs", "n=2", 160, 0.005),  // faster without
      point("v1__no_noisy", "n=1", 110, 0.08),  point("v1__no_noisy", "n=2", 220, 0.08),  // 10 %, noise 8 %
  };
}

TEST(attribution, classes_follow_the_compare_verdict) {
  const std::vector<ablation_method> methods = compute_attribution(
      "v1", points(),
      {outcome("fast"), outcome("noop"), outcome("costs"), outcome("noisy"), outcome("broken", "build")}, 0.02);
  ASSERT_EQ(methods.size(), 5u);
  EXPECT_EQ(methods[0].m_class, k_ablation_effective);
  EXPECT_EQ(methods[1].m_class, k_ablation_ineffective);
  EXPECT_EQ(methods[2].m_class, k_ablation_ineffective);
  EXPECT_NE(methods[2].m_detail.find("costs time"), std::string::npos) << methods[2].m_detail;
  EXPECT_EQ(methods[3].m_class, k_ablation_unsure);
  EXPECT_EQ(methods[4].m_class, k_ablation_failed);
  EXPECT_EQ(methods[4].m_failure, "build");
  EXPECT_TRUE(methods[4].m_shapes.empty());
}

TEST(attribution, per_shape_attribution_is_without_minus_with) {
  const std::vector<ablation_method> methods = compute_attribution("v1", points(), {outcome("fast")}, 0.02);
  ASSERT_EQ(methods.size(), 1u);
  ASSERT_EQ(methods[0].m_shapes.size(), 2u);
  const ablation_shape& s = methods[0].m_shapes[1];
  EXPECT_EQ(s.m_shape, "n=2");
  EXPECT_DOUBLE_EQ(s.m_with_ns, 200);
  EXPECT_DOUBLE_EQ(s.m_without_ns, 390);
  EXPECT_DOUBLE_EQ(s.m_attribution_ns, 190);
  EXPECT_NEAR(s.m_change, 0.95, 1e-12);
  EXPECT_EQ(s.m_verdict, "SLOWER");
  ASSERT_TRUE(methods[0].m_change.has_value());
  EXPECT_GT(*methods[0].m_change, 0.8);
}

// A threshold above the effect makes the same evidence ineffective.
TEST(attribution, the_threshold_is_the_minimum_effect) {
  const std::vector<ablation_method> methods = compute_attribution("v1", points(), {outcome("fast")}, 2.0);
  EXPECT_EQ(methods.at(0).m_class, k_ablation_ineffective);
}

TEST(attribution, a_build_never_timed_is_implementation_failed) {
  const std::vector<ablation_method> methods = compute_attribution("v1", points(), {outcome("missing")}, 0.02);
  EXPECT_EQ(methods.at(0).m_class, k_ablation_failed);
  EXPECT_EQ(methods.at(0).m_failure, "benchmark");
}

TEST(attribution, the_table_names_every_method) {
  ablation_result a;
  a.m_methods = compute_attribution("v1", points(), {outcome("fast"), outcome("broken", "incorrect")}, 0.02);
  const std::string md = render_ablation_markdown(a);
  EXPECT_NE(md.find("| fast | effective | n=1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| broken | implementation-failed (incorrect) |"), std::string::npos) << md;
  const std::string html = render_ablation_html(a);
  EXPECT_NE(html.find("implementation-failed (incorrect)"), std::string::npos);
}

}  // namespace
}  // namespace kopt::test
