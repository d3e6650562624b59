// Interleaved sampling (framework/src/bench/interleave.hpp): the block size
// and the wall-time limit, driven by a fake wall clock whose samples cost
// what the test says: no device, no real time.
#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <limits>
#include <vector>

#include "bench/interleave.hpp"

namespace kopt::bench {
namespace {

sampler_settings settings(double min_time_s, double max_noise, double timeout_s) {
  sampler_settings s;
  s.m_min_samples = 10;
  s.m_min_time_s = min_time_s;
  s.m_max_noise = max_noise;
  s.m_timeout_s = timeout_s;
  s.m_warmup_samples = 3;
  return s;
}

// Implementation i's samples: `timed_ns[i]` of timed time (with a small
// deterministic spread) and `wall_s[i]` of wall time each, on a fake clock.
struct fake_machine {
  std::vector<double> timed_ns;
  std::vector<double> wall_s;
  double now_s = 0;
  std::size_t calls = 0;
  // After this many samples of implementation `slows`, its samples take
  // `slow_wall_s` of wall time.
  std::size_t slow_after = std::numeric_limits<std::size_t>::max();
  std::size_t slows = 0;
  double slow_wall_s = 0;
  std::vector<std::size_t> taken = std::vector<std::size_t>(8, 0);

  double sample(std::size_t i) {
    ++calls;
    const bool slow = i == slows && taken[i] >= slow_after;
    ++taken[i];
    now_s += slow ? slow_wall_s : wall_s[i];
    return timed_ns[i] * (1.0 + 0.001 * static_cast<double>(calls % 7));
  }
  interleaved_result run(const sampler_settings& s) {
    return run_interleaved(
        s, timed_ns.size(), [&](std::size_t i) { return sample(i); }, [&] { return now_s; });
  }
};

TEST(BlockSize, FromTheSampleTimeWhenTheWallTimeIsAlike) {
  // min_time 0.5 s: a block is 1/16 of it, 31.25 ms of 10 us samples.
  EXPECT_EQ(block_size(settings(0.5, 0.005, 15), 10e3, 12e-6), 3125u);
  EXPECT_EQ(block_size(settings(0.5, 0.005, 15), 10e3, 0), 3125u);  // wall unknown
  EXPECT_EQ(block_size(settings(0.5, 0.005, 15), 1.0, 2e-9), k_max_block);
  EXPECT_EQ(block_size(settings(0, 0.005, 15), 10e3, 12e-6), 1u);
}

TEST(BlockSize, BoundedByTheWallTimeOfASample) {
  // A cheat that returns at once after a 60 ms cache flush: 100 ns timed,
  // 60 ms of wall time per sample. By sample time a block would be 4096
  // samples (4 minutes); a round must take at most 1/16 of the 3 s limit.
  EXPECT_EQ(block_size(settings(0.2, 0.01, 3), 100.0, 0.06), 3u);
  // Slower than 1/16 of the limit per sample: one sample a block.
  EXPECT_EQ(block_size(settings(0.2, 0.01, 3), 100.0, 1.0), 1u);
  // No limit: no bound.
  EXPECT_EQ(block_size(settings(0.2, 0.01, std::numeric_limits<double>::infinity()), 100.0, 1.0), k_max_block);
}

TEST(Interleave, ARoundOfSlowFlushesStaysWithinTheLimit) {
  // Two implementations, each sample 100 ns timed and 60 ms of wall time:
  // min_time (0.2 s of timed time) is never reached; the limit (3 s x 2)
  // ends the run, after at least 16 rounds, not after one 4096-sample round.
  fake_machine m{{100.0, 100.0}, {0.06, 0.06}};
  const double warmup_s = 3 * 2 * 0.06;
  const interleaved_result r = m.run(settings(0.2, 1e-9, 3));
  EXPECT_EQ(r.m_blocks, (std::vector<std::size_t>{3, 3}));
  EXPECT_GE(r.m_rounds, 16u);
  EXPECT_LE(m.now_s - warmup_s, 6.0 + 2 * 3 * 0.06);
  for (const sampling_result& impl : r.m_impls) EXPECT_EQ(impl.m_stop.m_kind, stop_kind::timeout);
  for (const std::vector<double>& medians : r.m_round_medians) EXPECT_EQ(medians.size(), r.m_rounds);
}

TEST(Interleave, AVariantSlowAfterTheWarmUpEndsItsBlockAtTheLimit) {
  // The blocks are sized from a fast warm-up (1 us, 4096 samples a block);
  // then the first implementation takes 0.6 s per sample: its block ends
  // once the limit (2 s x 2) has passed, the round is completed with one
  // sample of the second, and each implementation has one round median.
  fake_machine m{{1000.0, 1000.0}, {1e-6, 1e-6}};
  m.slows = 0;
  m.slow_after = 3;  // its warm-up samples
  m.slow_wall_s = 0.6;
  const interleaved_result r = m.run(settings(10.0, 1e-9, 2));
  EXPECT_EQ(r.m_blocks, (std::vector<std::size_t>{k_max_block, k_max_block}));
  EXPECT_EQ(r.m_rounds, 1u);
  EXPECT_EQ(r.m_impls[0].m_samples.size(), 7u);  // 7 x 0.6 s pass the 4 s limit
  EXPECT_EQ(r.m_impls[1].m_samples.size(), 1u);
  EXPECT_LE(m.now_s, 4.2 + 1e-3);
  for (const std::vector<double>& medians : r.m_round_medians) EXPECT_EQ(medians.size(), r.m_rounds);
  for (const sampling_result& impl : r.m_impls) EXPECT_EQ(impl.m_stop.m_kind, stop_kind::timeout);
}

TEST(Interleave, ConvergesAsBeforeWhenSamplesCostTheirTime) {
  // 10 us samples with 0.6% spread, wall time alike: converges on min_time
  // and noise after at least k_min_rounds rounds, far before the limit.
  fake_machine m{{10e3, 20e3}, {10e-6, 20e-6}};
  const interleaved_result r = m.run(settings(0.05, 0.005, 15));
  EXPECT_GE(r.m_rounds, k_min_rounds);
  for (const sampling_result& impl : r.m_impls) EXPECT_EQ(impl.m_stop.m_kind, stop_kind::converged);
  for (const std::vector<double>& medians : r.m_round_medians) EXPECT_EQ(medians.size(), r.m_rounds);
}

TEST(Interleave, ASlowReferenceDoesNotMultiplyTheRounds) {
  // gemm on an H200: kernels of ~0.19 ms beside a 58 ms reference. Blocks
  // sized by the slowest held one sample each, so each kernel's min_time
  // (0.5 s here) took ~2600 rounds of 58 ms. Each block on its own sample
  // time: ~16 rounds, and every implementation converges. (The fake's
  // slowest warm-up samples, 0.4 % and 0.5 % over the others, size them:
  // 31.25 ms / 190.8 us and / 186.9 us.)
  fake_machine m{{190e3, 186e3, 58e6}, {190e-6, 186e-6, 58e-3}};
  const interleaved_result r = m.run(settings(0.5, 0.005, 600));
  EXPECT_EQ(r.m_blocks, (std::vector<std::size_t>{164, 168, 1}));
  EXPECT_GE(r.m_rounds, k_min_rounds);
  EXPECT_LE(r.m_rounds, 20u);
  EXPECT_LT(m.now_s, 3.0);  // about 16 x (31 + 31 + 58) ms
  for (const sampling_result& impl : r.m_impls) EXPECT_EQ(impl.m_stop.m_kind, stop_kind::converged);
  for (const std::vector<double>& medians : r.m_round_medians) EXPECT_EQ(medians.size(), r.m_rounds);
  // Each implementation's wall time is its own blocks', not an equal share.
  EXPECT_NEAR(r.m_impls[2].m_wall_s, static_cast<double>(r.m_rounds) * 58e-3, 1e-9);
  EXPECT_NEAR(r.m_impls[0].m_wall_s, static_cast<double>(r.m_rounds * 164) * 190e-6, 1e-9);
}

TEST(Interleave, ACheatsSlowFlushesBoundOnlyItsOwnBlock) {
  // A cheat returning at once after a 60 ms host cache flush beside an
  // honest 10 us kernel: the cheat's block is 3 samples (a round within
  // 1/16 of the 3 s limit), the honest kernel's is still sized by min_time
  // (12.5 ms of its slowest warm-up sample, 10.06 us). Sized alike, both
  // would be 3.
  fake_machine m{{100.0, 10e3}, {0.06, 10e-6}};
  const interleaved_result r = m.run(settings(0.2, 1e-9, 3));
  EXPECT_EQ(r.m_blocks, (std::vector<std::size_t>{3, 1243}));
}

}  // namespace
}  // namespace kopt::bench
