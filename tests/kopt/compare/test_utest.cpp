// The Mann-Whitney U test (kopt/compare/utest.hpp) and what compare does
// with repetitions (verdict.hpp: merge_repetitions, the U test's verdict).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kopt/compare/utest.hpp"
#include "kopt/compare/verdict.hpp"

namespace kopt::test {
namespace {

timing_point point(const std::string& impl, const std::string& shape, double median_ns, double noise) {
  timing_point p{impl, shape, {}};
  p.m_stats.m_median_ns = median_ns;
  p.m_stats.m_noise = noise;
  p.m_stats.m_samples = 100;
  return p;
}

// scipy.stats.mannwhitneyu(a, b, alternative="two-sided").pvalue (scipy
// 1.17.1), the call Google Benchmark's compare.py makes.
TEST(compare_utest, p_values_are_scipys) {
  const std::vector<double> a = {100, 101, 102, 103, 104, 105, 106, 107, 108};
  const std::vector<double> b = {103, 104, 105, 106, 107, 108, 109, 110, 111};
  EXPECT_NEAR(mann_whitney_p(a, b), 0.05133246617264852, 1e-12);
  EXPECT_NEAR(mann_whitney_p(b, a), 0.05133246617264852, 1e-12);
  EXPECT_NEAR(mann_whitney_p({1, 2, 2, 3, 3, 3, 4, 5, 9, 9}, {2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 9}),
              0.19918288487726932, 1e-12);  // ties
  EXPECT_NEAR(mann_whitney_p({10, 11, 12, 13, 14, 15, 16, 17, 18}, {20, 21, 22, 23, 24, 25, 26, 27, 28}),
              0.00041229480206169127, 1e-12);
  EXPECT_EQ(mann_whitney_p(std::vector<double>(9, 5.0), std::vector<double>(9, 5.0)), 1.0);
}

std::vector<timing_point> repeated(const std::string& shape, const std::vector<double>& values) {
  std::vector<timing_point> points;
  for (const double v : values) points.push_back(point("v1", shape, v, 0.001));
  return points;
}

// --benchmark_repetitions: one row per impl and shape, every repetition
// kept; the same binary's repetitions against themselves are SAME.
TEST(compare_utest, repetitions_are_merged_by_name) {
  const std::vector<double> values = {100, 102, 99, 101, 100, 103, 98, 100, 101};
  const std::vector<timing_point> merged = merge_repetitions(repeated("a", values));
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].m_repetitions_ns.size(), 9u);
  EXPECT_DOUBLE_EQ(merged[0].m_stats.m_median_ns, 100);
  ASSERT_TRUE(merged[0].m_stats.m_noise);
  const compare_result same = compute_verdicts(merged, merged, k_default_threshold);
  ASSERT_EQ(same.m_rows.size(), 1u);
  EXPECT_EQ(same.m_rows[0].m_verdict, verdict::same);
  EXPECT_NEAR(*same.m_rows[0].m_p_value, 1.0, 1e-12);
  EXPECT_EQ(same.m_rows[0].m_base_repetitions, 9u);
}

TEST(compare_utest, significance_and_minimum_effect) {
  const std::vector<double> base = {100, 100.2, 99.8, 100.1, 99.9, 100.3, 99.7, 100, 100.1};
  auto shifted = [&](double factor) {
    std::vector<double> out;
    for (const double v : base) out.push_back(v * factor);
    return merge_repetitions(repeated("a", out));
  };
  const std::vector<timing_point> b = merge_repetitions(repeated("a", base));
  // 1 %: significant (p ~ 0.0004) but below the 2 % minimum effect: SAME.
  const compare_result tiny = compute_verdicts(b, shifted(1.01), k_default_threshold);
  EXPECT_LT(*tiny.m_rows[0].m_p_value, k_utest_alpha);
  EXPECT_EQ(tiny.m_rows[0].m_verdict, verdict::same);
  // 3 %: significant and beyond the threshold.
  EXPECT_EQ(compute_verdicts(b, shifted(1.03), k_default_threshold).m_rows[0].m_verdict, verdict::slower);
  EXPECT_EQ(compute_verdicts(b, shifted(0.97), k_default_threshold).m_rows[0].m_verdict, verdict::faster);
  // 5 % between medians but the distributions overlap: not significant.
  const std::vector<double> wide_base = {80, 90, 100, 110, 120, 85, 95, 105, 115};
  const std::vector<double> wide_new = {84, 94.5, 105, 115.5, 126, 89.25, 99.75, 110.25, 120.75};
  const compare_result wide = compute_verdicts(merge_repetitions(repeated("a", wide_base)),
                                               merge_repetitions(repeated("a", wide_new)), k_default_threshold);
  EXPECT_GT(*wide.m_rows[0].m_p_value, k_utest_alpha);
  EXPECT_EQ(wide.m_rows[0].m_verdict, verdict::unsure);
  // Fewer than 9 repetitions a side: the noise rule decides, no p-value.
  const std::vector<double> few = {100, 101, 99};
  const compare_result noise_rule =
      compute_verdicts(merge_repetitions(repeated("a", few)), merge_repetitions(repeated("a", few)), 0.02);
  EXPECT_FALSE(noise_rule.m_rows[0].m_p_value);
  EXPECT_EQ(noise_rule.m_rows[0].m_verdict, verdict::same);
}

std::vector<timing_point> two_rows(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<timing_point> points;
  for (std::size_t i = 0; i < a.size(); ++i) {  // one benchmark process per repetition
    points.push_back(point("v0", "n=16384", a[i], 0.01));
    points.push_back(point("v0", "n=65536", b[i], 0.01));
  }
  return merge_repetitions(points);
}

// One binary as base and as PR, 3 processes a side, on a 2-core CI machine
// (2026-12-03): a burst of load slowed the PR's 2nd and 3rd processes (run
// back to back in the ABBA order) by 60 %. The noise rule alone called the
// row SLOWER (+59 % against 3 x 15.6 % noise); the sides overlap (the PR's
// fastest run beats the base's slowest), so it is UNSURE.
TEST(compare_utest, few_repetitions_that_overlap_are_never_slower) {
  const compare_result r =
      compute_verdicts(two_rows({207, 221, 207}, {880, 843, 843}), two_rows({230, 331, 208}, {1358, 1341, 851}),
                       k_default_threshold);
  ASSERT_EQ(r.m_rows.size(), 2u);
  EXPECT_GT(r.m_rows[1].m_change, 3 * *r.m_rows[1].m_noise);  // what the noise rule alone would call SLOWER
  EXPECT_EQ(r.m_rows[1].m_verdict, verdict::unsure);
  EXPECT_NE(r.m_rows[0].m_verdict, verdict::slower);
  ASSERT_TRUE(r.m_geomean);
  EXPECT_NE(r.m_geomean->m_verdict, verdict::slower);
  EXPECT_FALSE(r.any_slower());
}

// The same rule keeps real changes: sides apart by 10 %, 3 a side.
TEST(compare_utest, few_repetitions_apart_keep_their_verdict) {
  const std::vector<timing_point> base = two_rows({200, 202, 201}, {800, 805, 798});
  const compare_result slower = compute_verdicts(base, two_rows({221, 223, 220}, {880, 886, 879}),
                                                 k_default_threshold);
  EXPECT_EQ(slower.m_rows[0].m_verdict, verdict::slower);
  EXPECT_EQ(slower.m_rows[1].m_verdict, verdict::slower);
  EXPECT_EQ(slower.m_geomean->m_verdict, verdict::slower);
  const compare_result faster = compute_verdicts(base, two_rows({181, 182, 180}, {720, 724, 719}),
                                                 k_default_threshold);
  EXPECT_EQ(faster.m_rows[0].m_verdict, verdict::faster);
  EXPECT_EQ(faster.m_geomean->m_verdict, verdict::faster);
  // One overlapping repetition is enough to withhold the verdict, even where
  // the noise rule alone would give it.
  const compare_result overlap = compute_verdicts(base, two_rows({260, 261, 201.9}, {880, 886, 879}),
                                                  k_default_threshold);
  EXPECT_GT(overlap.m_rows[0].m_change, 3 * *overlap.m_rows[0].m_noise);
  EXPECT_EQ(overlap.m_rows[0].m_verdict, verdict::unsure);
  EXPECT_EQ(overlap.m_rows[1].m_verdict, verdict::slower);
}

}  // namespace
}  // namespace kopt::test
