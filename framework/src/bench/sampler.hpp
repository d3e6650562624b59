// Sampling one implementation until its median is known well enough:
// statistics of the samples, the noise of the median, and the stop rules
// (NVBench's cold measurement: min samples, min time, max noise, timeout).
// Backend-free: the CUDA backend feeds it event times, the host backend
// steady-clock times; tests feed it numbers.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt::bench {

struct sampler_settings {
  std::size_t m_min_samples = 10;
  double m_min_time_s = 0.5;     // accumulated sample time, not wall time (as NVBench)
  double m_max_noise = 0.005;    // relative standard error of the median
  double m_timeout_s = 15.0;     // wall time of the sampling loop, warm-up excluded
  std::size_t m_warmup_samples = 3;
  // Resolution of the clock in ns: floors the spread estimate so that a
  // clock that returns the same tick every time cannot claim zero noise.
  double m_resolution_ns = 0.0;
  // Safety cap; never reached by the default settings on real kernels.
  std::size_t m_max_samples = 1000000;
};

// timing_spec (what the CMake declaration says) -> sampler settings.
[[nodiscard]] sampler_settings settings_from(const timing_spec& timing);

struct sample_stats {
  std::size_t m_count = 0;
  double m_median = 0, m_mean = 0, m_min = 0, m_max = 0;
  double m_p10 = 0, m_p90 = 0;
  double m_stddev = 0;  // sample standard deviation (n - 1)
  double m_cv = 0;      // stddev / mean
  double m_mad = 0;     // median absolute deviation from the median
  double m_iqr = 0;     // p75 - p25
  double m_noise = 0;   // median_noise(...), +inf when it cannot be estimated
  double m_total = 0;   // sum of the samples
};

// Linear interpolation between the closest ranks (numpy's default, R type 7).
// REQUIRES: `sorted` ascending and not empty; 0 <= q <= 1.
[[nodiscard]] double quantile_sorted(const std::vector<double>& sorted, double q);

// Relative standard error of the median:
//   sigma = max(1.4826 * MAD, IQR / 1.349, resolution / sqrt(12))
//   noise = 1.2533 * sigma / sqrt(n) / median
// 1.4826 * MAD and IQR / 1.349 both estimate sigma for normal data without
// being pulled by outliers (a preempted sample); MAD alone collapses to 0
// when just over half the samples are equal (two clock states, a coarse
// clock), the IQR does not until three quarters are. The resolution term
// keeps a clock that returns the same tick from claiming zero noise.
// 1.2533 = sqrt(pi / 2) is the asymptotic standard error of the median
// relative to that of the mean. +inf when n < 2 or median <= 0.
[[nodiscard]] double median_noise(double median, double mad, double iqr, std::size_t n, double resolution_ns);

[[nodiscard]] sample_stats compute_stats(const std::vector<double>& samples, double resolution_ns);

enum class stop_kind { running, converged, timeout, sample_cap };

struct stop_decision {
  stop_kind m_kind = stop_kind::running;
  std::string m_reason;  // "noise 0.21% below 0.5% after 412 samples", ...
};

// The stop rules over a growing set of samples. The median (an O(n) pass)
// is re-evaluated when the count has grown by 1/64 since the last check,
// so a run of n samples costs O(n log n), and stopping is late by < 2%.
class sampler {
 public:
  explicit sampler(const sampler_settings& settings) : m_settings(settings) {}

  void add(double sample);
  // Stops when: count >= min_samples and accumulated >= min_time_s and
  // noise <= max_noise (converged); or wall_elapsed_s >= timeout_s (with at
  // least one sample); or count >= max_samples.
  [[nodiscard]] stop_decision check(double wall_elapsed_s);

  [[nodiscard]] const std::vector<double>& samples() const { return m_samples; }
  [[nodiscard]] double accumulated() const { return m_total; }
  // Noise at the last evaluation (+inf before the first one).
  [[nodiscard]] double last_noise() const { return m_last_noise; }

 private:
  sampler_settings m_settings;
  std::vector<double> m_samples;
  double m_total = 0;
  std::size_t m_evaluated_at = 0;
  double m_last_noise = std::numeric_limits<double>::infinity();
};

struct sampling_result {
  std::vector<double> m_samples;  // in measurement order, warm-up excluded
  sample_stats m_stats;
  stop_decision m_stop;
  double m_wall_s = 0;            // wall time of the sampling loop
};

// Runs m_warmup_samples discarded calls of `measure`, then samples until
// the sampler stops. `measure` returns one sample in ns; `wall_now_s` is
// the wall clock in seconds (injectable for tests); `between` runs after
// every sample, outside any measurement (clock polling).
[[nodiscard]] sampling_result run_sampling(const sampler_settings& settings,
                                           const std::function<double()>& measure,
                                           const std::function<double()>& wall_now_s,
                                           const std::function<void()>& between = {});

// Whether two clocks measuring the same launches agree.
struct clock_agreement {
  bool m_agree = true;
  double m_difference = 0;  // (second - primary) / primary
  double m_bound = 0;       // relative bound that was applied
};
// Disagree when |second - primary| > max(2%, 3 * sqrt(noise_p^2 + noise_s^2),
// floor_ns / primary): 2% is the smallest difference worth a warning, three
// combined standard errors keep noise from tripping it, and `floor_ns`
// absorbs the fixed cost one clock sees and the other does not (the event
// pair's front-end latency around a launch).
[[nodiscard]] clock_agreement compare_clocks(double primary_median, double primary_noise,
                                             double second_median, double second_noise,
                                             double floor_ns);

// std::chrono::steady_clock in seconds: the wall clock of every time limit
// and of the sampling loops (the one copy the bench and its engines use).
[[nodiscard]] double steady_now_s();

// "0.21%" with two significant decimals, for messages.
[[nodiscard]] std::string percent_text(double fraction);

}  // namespace kopt::bench
