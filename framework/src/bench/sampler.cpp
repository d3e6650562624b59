#include "bench/sampler.hpp"

#include <chrono>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace kopt::bench {
namespace {

constexpr double k_sigma_per_mad = 1.4826;      // sigma / MAD for normal data
constexpr double k_iqr_per_sigma = 1.349;        // IQR / sigma for normal data
constexpr double k_median_se_factor = 1.2533;   // sqrt(pi / 2)
constexpr double k_ns_per_s = 1e9;

// quantile_sorted(sort(values), q) by selection, O(n); reorders `values`.
double quantile_select(std::vector<double>& values, double q) {
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const auto at = values.begin() + static_cast<std::ptrdiff_t>(below);
  std::nth_element(values.begin(), at, values.end());
  const double low = *at;
  if (below + 1 >= values.size()) return low;
  const double high = *std::min_element(at + 1, values.end());
  return low + (position - static_cast<double>(below)) * (high - low);
}

// Noise of the median of `samples` without sorting them.
double noise_of(const std::vector<double>& samples, double resolution) {
  std::vector<double> work = samples;
  const double median = quantile_select(work, 0.5);
  const double p25 = quantile_select(work, 0.25);
  const double p75 = quantile_select(work, 0.75);
  for (double& v : work) v = std::fabs(v - median);
  const double mad = quantile_select(work, 0.5);
  return median_noise(median, mad, p75 - p25, samples.size(), resolution);
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", seconds);
  return text;
}

stop_decision converged(double noise, double bound, std::size_t n) {
  return {stop_kind::converged, "noise " + percent_text(noise) + " below " + percent_text(bound) + " after " +
                                    std::to_string(n) + " samples"};
}

}  // namespace

sampler_settings settings_from(const timing_spec& timing) {
  sampler_settings settings;
  settings.m_min_samples = static_cast<std::size_t>(std::max(1, timing.m_min_samples));
  settings.m_min_time_s = std::max(0.0, timing.m_min_time_s);
  settings.m_max_noise = timing.m_max_noise;
  settings.m_timeout_s = timing.m_timeout_s;
  settings.m_warmup_samples = static_cast<std::size_t>(std::max(0, timing.m_warmup_samples));
  return settings;
}

double quantile_sorted(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

double median_noise(double median, double mad, double iqr, std::size_t n, double resolution_ns) {
  if (n < 2 || !(median > 0)) return std::numeric_limits<double>::infinity();
  const double sigma = std::max({k_sigma_per_mad * mad, iqr / k_iqr_per_sigma, resolution_ns / std::sqrt(12.0)});
  return k_median_se_factor * sigma / std::sqrt(static_cast<double>(n)) / median;
}

sample_stats compute_stats(const std::vector<double>& samples, double resolution_ns) {
  sample_stats stats;
  stats.m_count = samples.size();
  if (samples.empty()) {
    stats.m_noise = std::numeric_limits<double>::infinity();
    return stats;
  }
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  stats.m_min = sorted.front();
  stats.m_max = sorted.back();
  stats.m_median = quantile_sorted(sorted, 0.5);
  stats.m_p10 = quantile_sorted(sorted, 0.1);
  stats.m_p90 = quantile_sorted(sorted, 0.9);
  stats.m_iqr = quantile_sorted(sorted, 0.75) - quantile_sorted(sorted, 0.25);
  stats.m_total = std::accumulate(sorted.begin(), sorted.end(), 0.0);
  stats.m_mean = stats.m_total / static_cast<double>(sorted.size());
  if (sorted.size() > 1) {
    double squares = 0;
    for (const double v : sorted) squares += (v - stats.m_mean) * (v - stats.m_mean);
    stats.m_stddev = std::sqrt(squares / static_cast<double>(sorted.size() - 1));
  }
  stats.m_cv = stats.m_mean > 0 ? stats.m_stddev / stats.m_mean : 0.0;
  std::vector<double> deviations(sorted.size());
  for (std::size_t i = 0; i < sorted.size(); ++i) deviations[i] = std::fabs(sorted[i] - stats.m_median);
  std::sort(deviations.begin(), deviations.end());
  stats.m_mad = quantile_sorted(deviations, 0.5);
  stats.m_noise = median_noise(stats.m_median, stats.m_mad, stats.m_iqr, stats.m_count, resolution_ns);
  return stats;
}

void sampler::add(double sample) {
  m_samples.push_back(sample);
  m_total += sample;
}

stop_decision sampler::check(double wall_elapsed_s) {
  const std::size_t n = m_samples.size();
  if (n == 0) return {};
  const double accumulated_s = m_total / k_ns_per_s;
  const bool minimums_met = n >= m_settings.m_min_samples && accumulated_s >= m_settings.m_min_time_s;
  if (minimums_met) {
    const std::size_t step = std::max<std::size_t>(1, n / 64);
    if (m_evaluated_at == 0 || n >= m_evaluated_at + step) {
      m_last_noise = noise_of(m_samples, m_settings.m_resolution_ns);
      m_evaluated_at = n;
      if (m_last_noise <= m_settings.m_max_noise) {
        return converged(m_last_noise, m_settings.m_max_noise, n);
      }
    }
  }
  const bool capped = n >= m_settings.m_max_samples;
  const bool timed_out = wall_elapsed_s >= m_settings.m_timeout_s;
  if (!capped && !timed_out) return {};

  m_last_noise = noise_of(m_samples, m_settings.m_resolution_ns);
  m_evaluated_at = n;
  if (minimums_met && m_last_noise <= m_settings.m_max_noise) {
    return converged(m_last_noise, m_settings.m_max_noise, n);
  }
  std::string reason = capped ? "sample cap of " + std::to_string(m_settings.m_max_samples) + " reached"
                              : "timeout after " + seconds_text(wall_elapsed_s);
  reason += ": " + std::to_string(n) + " samples";
  if (n < m_settings.m_min_samples) reason += " (min " + std::to_string(m_settings.m_min_samples) + ")";
  if (accumulated_s < m_settings.m_min_time_s) {
    reason += ", " + seconds_text(accumulated_s) + " of samples (min " + seconds_text(m_settings.m_min_time_s) + ")";
  }
  reason += ", noise " + percent_text(m_last_noise) + " (bound " + percent_text(m_settings.m_max_noise) + ")";
  return {capped ? stop_kind::sample_cap : stop_kind::timeout, reason};
}

sampling_result run_sampling(const sampler_settings& settings, const std::function<double()>& measure,
                             const std::function<double()>& wall_now_s, const std::function<void()>& between) {
  for (std::size_t i = 0; i < settings.m_warmup_samples; ++i) (void)measure();
  sampler samples(settings);
  sampling_result result;
  const double start = wall_now_s();
  for (;;) {
    samples.add(measure());
    if (between) between();
    result.m_stop = samples.check(wall_now_s() - start);
    if (result.m_stop.m_kind != stop_kind::running) break;
  }
  result.m_wall_s = wall_now_s() - start;
  result.m_samples = samples.samples();
  result.m_stats = compute_stats(result.m_samples, settings.m_resolution_ns);
  return result;
}

clock_agreement compare_clocks(double primary_median, double primary_noise, double second_median,
                               double second_noise, double floor_ns) {
  clock_agreement agreement;
  if (!(primary_median > 0)) {
    agreement.m_agree = false;
    agreement.m_difference = std::numeric_limits<double>::infinity();
    agreement.m_bound = 0;
    return agreement;
  }
  agreement.m_difference = (second_median - primary_median) / primary_median;
  const double combined = std::sqrt(primary_noise * primary_noise + second_noise * second_noise);
  agreement.m_bound = std::max({0.02, 3.0 * combined, floor_ns / primary_median});
  agreement.m_agree = std::fabs(agreement.m_difference) <= agreement.m_bound;
  return agreement;
}

std::string percent_text(double fraction) {
  if (!std::isfinite(fraction)) return "unknown";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f%%", fraction * 100.0);
  return text;
}

double steady_now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace kopt::bench
