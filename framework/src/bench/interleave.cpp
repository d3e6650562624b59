#include "bench/interleave.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace kopt::bench {
namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return quantile_sorted(values, 0.5);
}

}  // namespace

std::size_t block_size(const sampler_settings& settings, double slowest_sample_ns, double slowest_wall_s) {
  if (!(settings.m_min_time_s > 0) || !(slowest_sample_ns > 0)) return 1;
  const double target_ns = settings.m_min_time_s * 1e9 * k_block_fraction;
  double block = std::ceil(target_ns / slowest_sample_ns);
  // The limit is timeout x count and a round takes count blocks, each at most
  // timeout x k_round_wall_fraction: the count cancels.
  if (std::isfinite(settings.m_timeout_s) && slowest_wall_s > 0) {
    block = std::min(block, std::floor(settings.m_timeout_s * k_round_wall_fraction / slowest_wall_s));
  }
  return static_cast<std::size_t>(std::clamp(block, 1.0, static_cast<double>(k_max_block)));
}

interleaved_result run_interleaved(const sampler_settings& settings, std::size_t count,
                                   const std::function<double(std::size_t)>& sample,
                                   const std::function<double()>& wall_now_s,
                                   const std::function<void()>& between) {
  interleaved_result result;
  result.m_impls.resize(count);
  result.m_round_medians.resize(count);
  if (count == 0) return result;

  // Warm-up, round-robin; each implementation's slowest warm-up sample sizes its block.
  std::vector<double> slowest(count, 0.0);
  std::vector<double> slowest_wall(count, 0.0);
  const std::size_t warmups = std::max<std::size_t>(settings.m_warmup_samples, 1);
  for (std::size_t w = 0; w < warmups; ++w) {
    for (std::size_t i = 0; i < count; ++i) {
      const double before = wall_now_s();
      slowest[i] = std::max(slowest[i], sample(i));
      if (between) between();
      slowest_wall[i] = std::max(slowest_wall[i], wall_now_s() - before);
    }
  }
  result.m_blocks.resize(count);
  for (std::size_t i = 0; i < count; ++i) result.m_blocks[i] = block_size(settings, slowest[i], slowest_wall[i]);

  // The samplers decide convergence; the wall-time limit is the window's.
  sampler_settings own = settings;
  own.m_timeout_s = std::numeric_limits<double>::infinity();
  std::vector<sampler> samplers(count, sampler(own));
  std::vector<stop_decision> stops(count);
  const double limit_s = settings.m_timeout_s * static_cast<double>(count);
  const double start = wall_now_s();

  std::vector<double> block;
  std::vector<double> impl_wall(count, 0.0);
  for (std::size_t round = 0;; ++round) {
    // Past the limit, the rest of the round takes one sample each.
    bool late = false;
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t i = round % 2 == 0 ? k : count - 1 - k;
      block.clear();
      double now = wall_now_s();
      const double block_start = now;
      for (std::size_t b = 0; b < result.m_blocks[i] && !(late && b > 0); ++b) {
        const double ns = sample(i);
        samplers[i].add(ns);
        block.push_back(ns);
        if (between) between();
        now = wall_now_s();
        late = late || now - start >= limit_s;
      }
      impl_wall[i] += now - block_start;
      result.m_round_medians[i].push_back(median_of(block));
    }
    result.m_rounds = round + 1;

    const double elapsed = wall_now_s() - start;
    bool all_converged = true;
    bool capped = false;
    for (std::size_t i = 0; i < count; ++i) {
      // Converged stays converged: the others' rounds only add samples.
      if (stops[i].m_kind != stop_kind::converged) stops[i] = samplers[i].check(elapsed);
      all_converged = all_converged && stops[i].m_kind == stop_kind::converged;
      capped = capped || stops[i].m_kind == stop_kind::sample_cap;
    }
    if ((all_converged && result.m_rounds >= k_min_rounds) || capped) break;
    if (elapsed >= limit_s) {
      for (std::size_t i = 0; i < count; ++i) {
        if (stops[i].m_kind != stop_kind::converged) {
          stops[i] = {stop_kind::timeout, "timeout: " + std::to_string(elapsed) + " s for " + std::to_string(count) +
                                              " implementations interleaved, noise " +
                                              percent_text(samplers[i].last_noise()) + " after " +
                                              std::to_string(samplers[i].samples().size()) + " samples"};
        }
      }
      break;
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    sampling_result& r = result.m_impls[i];
    r.m_samples = samplers[i].samples();
    r.m_stats = compute_stats(r.m_samples, settings.m_resolution_ns);
    r.m_stop = stops[i];
    if (r.m_stop.m_kind == stop_kind::converged) r.m_stop.m_reason += ", " + std::to_string(result.m_rounds) + " rounds";
    // The window's wall time in this implementation's blocks, for the harness-cost figure.
    r.m_wall_s = impl_wall[i];
  }
  return result;
}

}  // namespace kopt::bench
