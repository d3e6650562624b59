// Benchmark JSON, KernelOpt's (with "kopt" blocks) and plain Google
// Benchmark: the one type (formats/bench_result.hpp) read and written back,
// read_bench, and load_timing_points (kopt compare's reader, which also
// takes a record).
#include "formats/bench_result.hpp"
#include "fuzz_target.hpp"
#include "kopt/compare/verdict.hpp"
#include "kopt/inputs/bench.hpp"

KOPT_FUZZ_TARGET(bench) {
  const std::filesystem::path file = kopt::fuzz::temp_file(data, size, "bench.json");
  kopt::fuzz::guarded([&] {
    const kopt::json doc = kopt::to_json(kopt::read_bench_result(file));
    (void)kopt::bench_result_from_json(kopt::json_reader(doc, "round trip"));
    (void)doc.dump();
  });
  kopt::fuzz::guarded([&] {
    const kopt::bench_set set = kopt::read_bench(file);
    for (const kopt::bench_row& row : set.m_rows) (void)set.find(row.m_impl, row.m_shape);
  });
  return kopt::fuzz::guarded([&] {
    const std::vector<kopt::timing_point> points = kopt::load_timing_points(file);
    (void)kopt::compute_verdicts(points, points, 0.02);
  });
}
