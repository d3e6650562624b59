// The fresh-content timing check (framework/src/bench/session.hpp,
// fresh_content_verdict): cached results are convicted, a machine slowed by
// other work is not. Numbers only: no device, no real time.
#include <gtest/gtest.h>

#include <vector>

#include "bench/session.hpp"

namespace kopt::bench {
namespace {

sample_stats repeated(double median_ns, double p90_ns) {
  sample_stats s;
  s.m_count = 400;
  s.m_median = median_ns;
  s.m_p90 = p90_ns;
  return s;
}

TEST(FreshContent, HonestSamplesPass) {
  EXPECT_EQ(fresh_content_verdict({27e3, 26e3, 28e3}, repeated(26.3e3, 28e3)), "");
}

TEST(FreshContent, CachedResultsAreConvicted) {
  // Computing takes 10x what returning a cached result takes.
  const std::string verdict = fresh_content_verdict({263e3, 270e3, 265e3}, repeated(26.3e3, 28e3), {26e3, 27e3, 26e3});
  EXPECT_NE(verdict.find("content_cached"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("on a seen input set just before"), std::string::npos) << verdict;
}

TEST(FreshContent, WithoutSeenSamplesTheRepeatedSetsDecide) {
  // The load of a shared machine rose after the interleaved samples: every
  // fresh sample is 1.51x the median (seen in CI, adversarial.host).
  EXPECT_NE(fresh_content_verdict({39.77e3, 41e3, 40e3}, repeated(26.33e3, 31.59e3)), "");
}

TEST(FreshContent, SeenSamplesTakenAlongsideWidenTheBound) {
  // The same slow fresh samples, with samples on a seen set taken just
  // before each as slow as they are: the machine, not a cache.
  EXPECT_EQ(fresh_content_verdict({39.77e3, 41e3, 40e3}, repeated(26.33e3, 31.59e3), {38e3, 40e3, 39e3}), "");
}

TEST(FreshContent, FastSeenSamplesDoNotNarrowTheBound) {
  // Seen samples faster than the repeated median leave the bound at
  // max(1.5x median, 1.25x p90).
  EXPECT_EQ(fresh_content_verdict({39e3}, repeated(26.33e3, 31.59e3), {10e3, 10e3, 10e3}), "");
}

// The audit's cache: hits cost 15 us, every 5th call recomputes (480 us),
// so p90 is the honest time and the check above lets it pass; its fresh
// samples are 32x its median and the seen ones are fast: timed as on new
// inputs.
TEST(FreshContent, SlowerOnNewInputsIsTimedAsOnNewInputs) {
  EXPECT_EQ(fresh_content_verdict({480e3, 477e3, 628e3}, repeated(15e3, 480e3), {15e3, 15e3, 480e3}), "");
  const std::optional<double> scale = fresh_content_scale({480e3, 477e3, 628e3}, 15e3, {15e3, 15e3, 480e3});
  ASSERT_TRUE(scale.has_value());
  EXPECT_DOUBLE_EQ(*scale, 32.0);
}

TEST(FreshContent, HonestOrLoadedSamplesAreNotScaled) {
  EXPECT_FALSE(fresh_content_scale({27e3, 26e3, 28e3}, 26.3e3, {26e3, 27e3, 26e3}).has_value());
  // A burst of load slows the seen samples alongside: the machine.
  EXPECT_FALSE(fresh_content_scale({39.77e3, 41e3, 40e3}, 26.33e3, {38e3, 40e3, 39e3}).has_value());
  EXPECT_FALSE(fresh_content_scale({}, 26e3, {}).has_value());
  EXPECT_FALSE(fresh_content_scale({1e9}, 0, {}).has_value());
}

TEST(FreshContent, NothingToJudge) {
  EXPECT_EQ(fresh_content_verdict({}, repeated(26e3, 28e3)), "");
  EXPECT_EQ(fresh_content_verdict({1e9}, repeated(0, 0)), "");
}

}  // namespace
}  // namespace kopt::bench
