// Benchmark JSON, KernelOpt's (with "kopt" blocks) and plain Google
// Benchmark: read_bench, and load_timing_points (kopt compare's reader,
// which also takes a record).
#include "fuzz_target.hpp"
#include "kopt/inputs/bench.hpp"
#include "kopt/compare/verdict.hpp"

KOPT_FUZZ_TARGET(bench) {
  const std::filesystem::path file = kopt::fuzz::temp_file(data, size, "bench.json");
  kopt::fuzz::guarded([&] {
    const kopt::bench_set set = kopt::read_bench(file);
    for (const kopt::bench_row& row : set.m_rows) (void)set.find(row.m_impl, row.m_shape);
  });
  return kopt::fuzz::guarded([&] {
    const std::vector<kopt::timing_point> points = kopt::load_timing_points(file);
    (void)kopt::compute_verdicts(points, points, 0.02);
  });
}
