// The sampler's statistics and stop rules (framework/src/bench/sampler.hpp),
// driven by numbers and a fake wall clock: no device, no real time.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "bench/sampler.hpp"

namespace kopt::bench {
namespace {

constexpr double k_inf = std::numeric_limits<double>::infinity();

// Deterministic spread around `center`: center * (1 + amplitude * u), u in
// [-1, 1), from a 64-bit LCG (so tests do not depend on <random>'s
// distributions, which differ between standard libraries).
class wobble {
 public:
  wobble(double center, double amplitude) : m_center(center), m_amplitude(amplitude) {}
  double operator()() {
    m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(m_state >> 11) / static_cast<double>(1ULL << 53) * 2.0 - 1.0;
    return m_center * (1.0 + m_amplitude * u);
  }

 private:
  double m_center;
  double m_amplitude;
  unsigned long long m_state = 42;
};

sampler_settings settings(std::size_t min_samples, double min_time_s, double max_noise, double timeout_s) {
  sampler_settings s;
  s.m_min_samples = min_samples;
  s.m_min_time_s = min_time_s;
  s.m_max_noise = max_noise;
  s.m_timeout_s = timeout_s;
  s.m_warmup_samples = 0;
  return s;
}

TEST(Quantile, InterpolatesLinearlyBetweenRanks) {
  const std::vector<double> v = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.1), 1.3);  // numpy.quantile([1,2,3,4], 0.1)
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.9), 3.7);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 1.0), 4.0);
  EXPECT_DOUBLE_EQ(quantile_sorted({7}, 0.5), 7.0);
}

TEST(Stats, KnownSample) {
  // Unsorted on purpose; one outlier (100).
  const std::vector<double> v = {10, 12, 11, 13, 100, 9, 11};
  const sample_stats s = compute_stats(v, 0.0);
  EXPECT_EQ(s.m_count, 7u);
  EXPECT_DOUBLE_EQ(s.m_median, 11.0);
  EXPECT_DOUBLE_EQ(s.m_min, 9.0);
  EXPECT_DOUBLE_EQ(s.m_max, 100.0);
  EXPECT_DOUBLE_EQ(s.m_mean, 166.0 / 7.0);
  EXPECT_DOUBLE_EQ(s.m_total, 166.0);
  // sorted 9 10 11 11 12 13 100: p10 at rank 0.6, p90 at rank 5.4
  EXPECT_DOUBLE_EQ(s.m_p10, 9.6);
  EXPECT_DOUBLE_EQ(s.m_p90, 13.0 + 0.4 * 87.0);
  // |x - 11|: 2 1 0 0 1 2 89 -> median 1
  EXPECT_DOUBLE_EQ(s.m_mad, 1.0);
  EXPECT_DOUBLE_EQ(s.m_iqr, 12.5 - 10.5);
  double squares = 0;
  for (const double x : v) squares += (x - s.m_mean) * (x - s.m_mean);
  EXPECT_NEAR(s.m_stddev, std::sqrt(squares / 6.0), 1e-12);
  EXPECT_NEAR(s.m_cv, s.m_stddev / s.m_mean, 1e-12);
  // The outlier moves the mean a lot and the noise estimate not at all.
  EXPECT_NEAR(s.m_noise, 1.2533 * 1.4826 * 1.0 / std::sqrt(7.0) / 11.0, 1e-12);
}

TEST(Stats, EvenCountMedianIsMeanOfMiddlePair) {
  const sample_stats s = compute_stats({4, 1, 3, 2}, 0.0);
  EXPECT_DOUBLE_EQ(s.m_median, 2.5);
  EXPECT_DOUBLE_EQ(s.m_mad, 1.0);  // |x - 2.5| = 1.5 .5 .5 1.5
}

TEST(Stats, EmptyAndSingle) {
  const sample_stats empty = compute_stats({}, 0.0);
  EXPECT_EQ(empty.m_count, 0u);
  EXPECT_EQ(empty.m_noise, k_inf);
  const sample_stats one = compute_stats({5.0}, 0.0);
  EXPECT_DOUBLE_EQ(one.m_median, 5.0);
  EXPECT_DOUBLE_EQ(one.m_stddev, 0.0);
  EXPECT_EQ(one.m_noise, k_inf);  // one sample says nothing about spread
}

TEST(Noise, Formula) {
  EXPECT_NEAR(median_noise(100.0, 2.0, 0.0, 16, 0.0), 1.2533 * 1.4826 * 2.0 / 4.0 / 100.0, 1e-15);
  EXPECT_EQ(median_noise(100.0, 2.0, 0.0, 1, 0.0), k_inf);
  EXPECT_EQ(median_noise(0.0, 2.0, 0.0, 16, 0.0), k_inf);
}

TEST(Noise, IqrCatchesWhatMadMisses) {
  // Two clock states, the faster one just the majority: MAD is 0, the
  // median could jump to 3000 with one more slow sample.
  std::vector<double> v(6, 1000.0);
  v.insert(v.end(), 5, 3000.0);
  const sample_stats s = compute_stats(v, 0.0);
  EXPECT_DOUBLE_EQ(s.m_mad, 0.0);
  EXPECT_DOUBLE_EQ(s.m_iqr, 2000.0);
  EXPECT_NEAR(s.m_noise, 1.2533 * (2000.0 / 1.349) / std::sqrt(11.0) / 1000.0, 1e-12);
  EXPECT_NEAR(median_noise(100.0, 1.0, 10.0, 4, 0.0), 1.2533 * (10.0 / 1.349) / 2.0 / 100.0, 1e-15);
}

TEST(Noise, ClockResolutionFloorsTheSpread) {
  // Identical ticks: MAD 0, but a 500 ns clock cannot know better than
  // 500/sqrt(12) ns per sample.
  const double floored = median_noise(10000.0, 0.0, 0.0, 100, 500.0);
  EXPECT_NEAR(floored, 1.2533 * (500.0 / std::sqrt(12.0)) / 10.0 / 10000.0, 1e-15);
  EXPECT_EQ(median_noise(10000.0, 0.0, 0.0, 100, 0.0), 0.0);
  // A real spread above the floor is used as is.
  EXPECT_NEAR(median_noise(10000.0, 1000.0, 0.0, 100, 500.0), 1.2533 * 1.4826 * 1000.0 / 10.0 / 10000.0, 1e-15);
}

TEST(Sampler, StopsAtMinSamplesWhenQuietAndTimeIsMet) {
  sampler s(settings(10, 0.0, 0.005, 15.0));
  for (int i = 0; i < 9; ++i) {
    s.add(1000.0 + i % 2);
    EXPECT_EQ(s.check(0.0).m_kind, stop_kind::running) << "sample " << i;
  }
  s.add(1000.0);
  const stop_decision d = s.check(0.0);
  EXPECT_EQ(d.m_kind, stop_kind::converged);
  EXPECT_EQ(d.m_reason.find("noise "), 0u) << d.m_reason;
  EXPECT_NE(d.m_reason.find("after 10 samples"), std::string::npos) << d.m_reason;
}

TEST(Sampler, WaitsForMinTimeOfAccumulatedSamples) {
  // 1 ms samples, 0.5 s minimum: 500 samples, although noise is tiny at 10.
  sampler s(settings(10, 0.5, 0.005, 1e9));
  std::size_t n = 0;
  stop_decision d;
  while (d.m_kind == stop_kind::running) {
    s.add(1e6);
    ++n;
    d = s.check(0.0);
  }
  EXPECT_EQ(d.m_kind, stop_kind::converged);
  EXPECT_EQ(n, 500u);
}

TEST(Sampler, RunsUntilNoiseIsBelowBound) {
  // +-10% uniform spread: MAD ~ 5%, noise ~ 1.86 * 0.05 / sqrt(n) <= 0.5%
  // needs n of roughly 350.
  wobble next(1000.0, 0.10);
  sampler s(settings(10, 0.0, 0.005, 1e9));
  std::size_t n = 0;
  stop_decision d;
  while (d.m_kind == stop_kind::running) {
    s.add(next());
    ++n;
    d = s.check(0.0);
  }
  EXPECT_EQ(d.m_kind, stop_kind::converged);
  EXPECT_GT(n, 250u);
  EXPECT_LT(n, 500u);
  EXPECT_LE(s.last_noise(), 0.005);
  // The noise the sampler stopped on is the one compute_stats reports.
  EXPECT_NEAR(compute_stats(s.samples(), 0.0).m_noise, s.last_noise(), 1e-12);
}

TEST(Sampler, StopsLateByAtMostOneCheckStep) {
  // The noise is evaluated when n grew by n/64: find the first n at which
  // noise <= bound by brute force, and check the sampler stopped within
  // n/64 + 1 of it.
  wobble a(1000.0, 0.10);
  std::vector<double> values;
  for (int i = 0; i < 5000; ++i) values.push_back(a());
  std::size_t first = 0;
  for (std::size_t n = 10; n <= values.size(); ++n) {
    std::vector<double> prefix(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
    if (compute_stats(prefix, 0.0).m_noise <= 0.005) {
      first = n;
      break;
    }
  }
  ASSERT_GT(first, 0u);
  sampler s(settings(10, 0.0, 0.005, 1e9));
  std::size_t n = 0;
  while (s.check(0.0).m_kind == stop_kind::running) s.add(values[n++]);
  EXPECT_GE(n, first);
  EXPECT_LE(n, first + first / 64 + 1);
}

TEST(Sampler, TimeoutStopsANoisySeries) {
  // Bimodal samples never converge to 0.5%; a fake clock runs out.
  sampler s(settings(10, 0.0, 0.005, 2.0));
  double wall = 0;
  std::size_t n = 0;
  stop_decision d;
  while (d.m_kind == stop_kind::running) {
    s.add(n % 2 == 0 ? 1000.0 : 3000.0);
    ++n;
    wall += 0.01;
    d = s.check(wall);
  }
  EXPECT_EQ(d.m_kind, stop_kind::timeout);
  EXPECT_EQ(n, 200u);
  EXPECT_EQ(d.m_reason.find("timeout after 2.00 s: 200 samples"), 0u) << d.m_reason;
  EXPECT_NE(d.m_reason.find("bound 0.50%"), std::string::npos) << d.m_reason;
}

TEST(Sampler, TimeoutWinsOverMinSamples) {
  // A 6 s sample with a 15 s timeout: three samples, not ten (as NVBench).
  sampler s(settings(10, 0.5, 0.005, 15.0));
  double wall = 0;
  std::size_t n = 0;
  stop_decision d;
  while (d.m_kind == stop_kind::running) {
    s.add(6e9);
    ++n;
    wall += 6.0;
    d = s.check(wall);
  }
  EXPECT_EQ(d.m_kind, stop_kind::timeout);
  EXPECT_EQ(n, 3u);
  EXPECT_NE(d.m_reason.find("3 samples (min 10)"), std::string::npos) << d.m_reason;
}

TEST(Sampler, SampleCap) {
  sampler_settings cfg = settings(10, 0.0, 0.0, 1e9);  // max_noise 0: never converges
  cfg.m_max_samples = 100;
  sampler s(cfg);
  wobble next(1000.0, 0.1);
  std::size_t n = 0;
  stop_decision d;
  while (d.m_kind == stop_kind::running) {
    s.add(next());
    ++n;
    d = s.check(0.0);
  }
  EXPECT_EQ(d.m_kind, stop_kind::sample_cap);
  EXPECT_EQ(n, 100u);
}

TEST(Sampler, NoSamplesNeverStops) {
  sampler s(settings(1, 0.0, 1.0, 0.0));
  EXPECT_EQ(s.check(100.0).m_kind, stop_kind::running);
}

TEST(RunSampling, WarmupIsDiscardedAndHooksRunPerSample) {
  sampler_settings cfg = settings(5, 0.0, 0.01, 1e9);
  cfg.m_warmup_samples = 3;
  int calls = 0;
  int between = 0;
  double wall = 0;
  // Warm-up calls return a huge value: it must not show up in the stats.
  const auto measure = [&] {
    ++calls;
    wall += 0.001;
    return calls <= 3 ? 1e12 : 1000.0;
  };
  const sampling_result r = run_sampling(cfg, measure, [&] { return wall; }, [&] { ++between; });
  EXPECT_EQ(calls, 3 + 5);
  EXPECT_EQ(between, 5);
  EXPECT_EQ(r.m_samples.size(), 5u);
  EXPECT_DOUBLE_EQ(r.m_stats.m_max, 1000.0);
  EXPECT_EQ(r.m_stop.m_kind, stop_kind::converged);
  EXPECT_NEAR(r.m_wall_s, 0.005, 1e-12);  // the loop only, warm-up excluded
}

TEST(RunSampling, TimeoutCountsFromAfterWarmup) {
  sampler_settings cfg = settings(1000, 0.0, 0.0, 1.0);
  cfg.m_warmup_samples = 2;
  double wall = 0;
  const auto measure = [&] {
    wall += 0.25;
    return 1000.0;
  };
  const sampling_result r = run_sampling(cfg, measure, [&] { return wall; });
  EXPECT_EQ(r.m_stop.m_kind, stop_kind::timeout);
  EXPECT_EQ(r.m_samples.size(), 4u);  // 2 warm-up calls (0.5 s) do not count
}

TEST(Settings, FromTimingSpec) {
  timing_spec t;
  t.m_min_samples = 20;
  t.m_min_time_s = 0.25;
  t.m_max_noise = 0.01;
  t.m_timeout_s = 5.0;
  t.m_warmup_samples = 0;
  const sampler_settings s = settings_from(t);
  EXPECT_EQ(s.m_min_samples, 20u);
  EXPECT_DOUBLE_EQ(s.m_min_time_s, 0.25);
  EXPECT_DOUBLE_EQ(s.m_max_noise, 0.01);
  EXPECT_DOUBLE_EQ(s.m_timeout_s, 5.0);
  EXPECT_EQ(s.m_warmup_samples, 0u);
  // NVBench's defaults are the declaration's defaults.
  const sampler_settings d = settings_from(timing_spec{});
  EXPECT_EQ(d.m_min_samples, 10u);
  EXPECT_DOUBLE_EQ(d.m_min_time_s, 0.5);
  EXPECT_DOUBLE_EQ(d.m_max_noise, 0.005);
  EXPECT_DOUBLE_EQ(d.m_timeout_s, 15.0);
}

TEST(ClockAgreement, WithinTwoPercentAgrees) {
  const clock_agreement a = compare_clocks(100000.0, 0.001, 101500.0, 0.001, 1000.0);
  EXPECT_TRUE(a.m_agree);
  EXPECT_NEAR(a.m_difference, 0.015, 1e-12);
  EXPECT_DOUBLE_EQ(a.m_bound, 0.02);
}

TEST(ClockAgreement, WorkOutsideTheEventsDisagrees) {
  // The second clock sees 30% more: a kernel on another stream.
  const clock_agreement a = compare_clocks(100000.0, 0.002, 130000.0, 0.002, 1000.0);
  EXPECT_FALSE(a.m_agree);
  EXPECT_NEAR(a.m_difference, 0.3, 1e-12);
}

TEST(ClockAgreement, NoiseWidensTheBound) {
  const clock_agreement a = compare_clocks(100000.0, 0.03, 108000.0, 0.04, 0.0);
  EXPECT_NEAR(a.m_bound, 3 * 0.05, 1e-12);
  EXPECT_TRUE(a.m_agree);
}

TEST(ClockAgreement, FixedFloorForShortKernels) {
  // 4 us kernel, events 0.8 us longer than the kernel: within the 1 us floor.
  const clock_agreement a = compare_clocks(4800.0, 0.001, 4000.0, 0.001, 1000.0);
  EXPECT_TRUE(a.m_agree);
  EXPECT_NEAR(a.m_bound, 1000.0 / 4800.0, 1e-12);
}

TEST(PercentText, TwoDecimals) {
  EXPECT_EQ(percent_text(0.005), "0.50%");
  EXPECT_EQ(percent_text(0.12345), "12.35%");
  EXPECT_EQ(percent_text(k_inf), "unknown");
}

}  // namespace
}  // namespace kopt::bench
