// kopt perf's band (kopt/compare/perf_band.hpp) over a record or a
// measured baseline (kopt/decide/baseline.hpp, kopt/records/perf_baseline.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/shape.hpp"
#include "kopt/compare/perf_band.hpp"
#include "kopt/compare/verdict.hpp"
#include "kopt/decide/baseline.hpp"
#include "kopt/records/perf_baseline.hpp"

namespace kopt::test {
namespace {

timing_point point(const std::string& impl, const std::string& shape, double median_ns, double noise) {
  timing_point p{impl, shape, {}};
  p.m_stats.m_median_ns = median_ns;
  p.m_stats.m_noise = noise;
  p.m_stats.m_samples = 100;
  return p;
}

// The perf band (perf_band.hpp): floor, measured spread, board allowance.
TEST(perf_band, measured_spread_and_board_allowance) {
  record best;
  best.m_variant = "v4";
  best.m_source.m_sha256 = "abc";
  best.m_timing.m_device = "NVIDIA H200";
  best.m_timing.m_gpu = gpu_info{0, std::nullopt, "GPU-a", std::nullopt, std::nullopt};
  shape_timing s;
  s.m_shape = shape::parse("n=1");
  s.m_stats.m_median_ns = 1000;
  s.m_stats.m_noise = 0.001;
  s.m_stats.m_samples = 100;
  best.m_timing.m_shapes = {s};
  // Record only, same board: the floor. Another board: the allowance.
  const perf_reference same = perf_reference_for(best, std::nullopt, "", "GPU-a", 0.02);
  EXPECT_DOUBLE_EQ(*same.m_points[0].m_band, 0.02);
  EXPECT_FALSE(same.m_other_board);
  const perf_reference other = perf_reference_for(best, std::nullopt, "", "GPU-b", 0.02);
  EXPECT_DOUBLE_EQ(*other.m_points[0].m_band, k_board_allowance);
  EXPECT_DOUBLE_EQ(*other.m_geomean_band, k_board_allowance);
  // The false alarm: +3.7 % on another board of the same model is SAME; +5 % on the recording board is not.
  record unnamed = best;  // a record made before kopt.gpu: its board is unknown
  unnamed.m_timing.m_gpu = std::nullopt;
  EXPECT_DOUBLE_EQ(*perf_reference_for(unnamed, std::nullopt, "", "GPU-a", 0.02).m_points[0].m_band, k_board_allowance);
  EXPECT_DOUBLE_EQ(*perf_reference_for(unnamed, std::nullopt, "", "", 0.02).m_points[0].m_band, 0.02);  // host
  const std::vector<timing_point> plus37 = {point("v4", "n=1", 1037, 0.001)};
  EXPECT_FALSE(compute_verdicts(other.m_points, plus37, 0.02, other.m_geomean_band).any_slower());
  const std::vector<timing_point> plus5 = {point("v4", "n=1", 1050, 0.001)};
  EXPECT_TRUE(compute_verdicts(same.m_points, plus5, 0.02, same.m_geomean_band).any_slower());

  // A baseline: 3 x spread x sqrt(1 + 1/N) when that is wider than the floor.
  bench_set run;
  run.m_device = "NVIDIA H200";
  run.m_gpu = gpu_info{0, std::nullopt, "GPU-a", std::nullopt, std::nullopt};
  std::vector<bench_set> runs;
  for (const double t : {1000.0, 1010.0, 990.0, 1005.0}) {
    bench_row row;
    row.m_impl = "v4";
    row.m_shape = "n=1";
    row.m_stats.m_median_ns = t;
    row.m_stats.m_samples = 100;
    run.m_rows = {row};
    runs.push_back(run);
  }
  const perf_baseline b = measure_baseline(best, runs, "2026-11-24T00:00:00Z");
  EXPECT_EQ(b.m_gpus, std::vector<std::string>{"GPU-a"});
  EXPECT_DOUBLE_EQ(b.m_shapes[0].m_median_ns, 1002.5);
  EXPECT_NEAR(b.m_shapes[0].m_spread, log_spread({1000, 1010, 990, 1005}), 1e-15);
  const perf_reference measured = perf_reference_for(best, b, "f.json", "GPU-a", 0.02);
  EXPECT_NEAR(*measured.m_points[0].m_band, 3 * b.m_shapes[0].m_spread * std::sqrt(1.25), 1e-12);
  EXPECT_GT(*measured.m_points[0].m_band, 0.02);
  EXPECT_DOUBLE_EQ(*perf_reference_for(best, b, "f.json", "GPU-z", 0.02).m_points[0].m_band, k_board_allowance);
  // A record shape the baseline lacks (a --quick baseline) comes from the record.
  shape_timing extra = s;
  extra.m_shape = shape::parse("n=2");
  best.m_timing.m_shapes.push_back(extra);
  const perf_reference mixed = perf_reference_for(best, b, "f.json", "GPU-a", 0.02);
  ASSERT_EQ(mixed.m_points.size(), 2u);
  EXPECT_EQ(mixed.m_points[1].m_shape, "n=2");
  EXPECT_DOUBLE_EQ(*mixed.m_points[1].m_band, 0.02);
  EXPECT_TRUE(perf_reference_for(best, b, "f.json", "GPU-a", 0.02, false).m_points.size() == 1u);
  // Round trip through the file's JSON.
  const perf_baseline back = perf_baseline_from_json(to_json(b), "f.json");
  EXPECT_EQ(back.m_shapes[0].m_run_medians_ns, b.m_shapes[0].m_run_medians_ns);
  EXPECT_EQ(device_slug("NVIDIA H200"), "nvidia-h200");
  EXPECT_EQ(device_slug("host (x86_64)"), "host-x86-64");
  runs.pop_back();
  runs.pop_back();
  EXPECT_THROW((void)measure_baseline(best, runs, ""), std::runtime_error);  // fewer than 3 runs
}

}  // namespace
}  // namespace kopt::test
