// Sampling several implementations of one shape in turn, so that drift of
// the machine (clocks, temperature, other load) falls on all of them alike
// instead of on whichever ran last. Round r takes a block of samples of
// every implementation, in declaration order on even rounds and in reverse
// on odd ones (A B, B A, A B, ...: seed 000's ABBA rule); the median of each
// block is kept, so that `kopt` can compare two implementations round by
// round and measure the spread between rounds, not only within a run.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "bench/sampler.hpp"

namespace kopt::bench {

inline constexpr std::size_t k_min_rounds = 6;
// A block aims at this fraction of min_time, so that a run has about
// 1 / k_block_fraction rounds when it stops on min_time.
inline constexpr double k_block_fraction = 1.0 / 16;
// A round takes at most this fraction of the wall-time limit, so that at
// least 1 / k_round_wall_fraction rounds fit in it.
inline constexpr double k_round_wall_fraction = 1.0 / 16;
inline constexpr std::size_t k_max_block = 4096;

struct interleaved_result {
  std::vector<sampling_result> m_impls;              // pooled samples per implementation
  std::vector<std::vector<double>> m_round_medians;  // [implementation][round]
  std::vector<std::size_t> m_blocks;                 // [implementation]: its samples per round
  std::size_t m_rounds = 0;
};

// An implementation's block size: its samples per round, from its slowest
// warm-up sample time (ns) so that its block takes about k_block_fraction of
// min_time; 1 when min_time is 0. Each implementation has its own: sized by
// the slowest of all, a 58 ms reference beside 0.2 ms kernels gave every
// block one sample, and the kernels' min_time took ~1300 rounds, each paying
// the reference's 58 ms (76 s a shape). A sample's wall time (cache flush,
// synchronisation, the work between samples) can exceed its timed part many
// times over, as for a variant that returns at once after a host engine's
// flush of a large cache: the block is also small enough that it takes at
// most k_round_wall_fraction of settings.m_timeout_s, each sample taking its
// slowest warm-up wall time `slowest_wall_s` (0: unknown, no bound), so that
// a round of `count` blocks takes at most k_round_wall_fraction of the
// window's limit (settings.m_timeout_s x count).
[[nodiscard]] std::size_t block_size(const sampler_settings& settings, double slowest_sample_ns,
                                     double slowest_wall_s);

// Runs settings.m_warmup_samples discarded samples of each implementation,
// then rounds until every implementation's sampler has converged (and at
// least k_min_rounds rounds ran), or the wall time passes
// settings.m_timeout_s × count, or an implementation reaches max_samples.
// The wall time is looked at after every sample: once it has passed, the
// block under way ends and each implementation left in the round takes one
// sample, so that every round holds every implementation.
// `sample(i)` takes one sample of implementation i in ns; `between` runs
// after every sample, outside any measurement.
[[nodiscard]] interleaved_result run_interleaved(const sampler_settings& settings, std::size_t count,
                                                 const std::function<double(std::size_t)>& sample,
                                                 const std::function<double()>& wall_now_s,
                                                 const std::function<void()>& between = {});

}  // namespace kopt::bench
