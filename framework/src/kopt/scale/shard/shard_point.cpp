#include "kopt/scale/shard/shard_point.hpp"

#include <ostream>
#include <sstream>

#include "core/format.hpp"
#include "core/json_io.hpp"
#include "kopt/inputs/bench.hpp"
#include "kopt/inputs/correctness.hpp"
#include "kopt/sweep/point_result.hpp"
#include "kopt/sweep/sweep_run.hpp"

namespace kopt::scale {

void run_point(const manifest& m, const suite_unit& unit, const std::filesystem::path& dir, unit_outcome& u,
               std::ostream& out) {
  const variant_decl& family = m.variant(unit.m_family);
  const std::string rel_dir = m.m_kernel + "/sweep/" + unit.m_family + "/";
  sweep_options options;
  options.m_points = {unit.m_impl};
  options.m_jobs = 1;
  options.m_force = true;  // the shard's own folder: nothing to resume
  options.m_dir = dir / rel_dir;
  std::ostringstream log;
  (void)run_sweep(m, family, options, log);
  write_file_atomic(dir / m.m_kernel / "logs" / (unit.m_impl + ".sweep.log"), log.str());
  const point_result r = read_point_result(point_result_path(options.m_dir, unit.m_impl));
  u.m_family = unit.m_family;
  u.m_point_file = rel_dir + unit.m_impl + ".json";
  u.m_source_sha256 = r.m_source_hash;
  correctness_summary summary;
  const std::string correct_rel = rel_dir + unit.m_impl + ".correct.json";
  if (r.m_build.m_status == "skipped") {
    u.m_correctness = "skipped";
    u.m_correctness_detail = r.m_build.m_detail;
  } else if (r.m_build.m_status != "ok") {
    u.m_correctness = "fail";
    u.m_correctness_detail = r.failure();
  } else if (r.m_correctness.m_status == "skipped" || r.m_correctness.m_status == "not_run") {
    u.m_correctness = "skipped";
    u.m_correctness_detail = r.m_correctness.m_detail;
  } else {
    u.m_correctness = r.m_correctness.m_status == "pass" ? "pass" : "fail";
    u.m_correctness_detail = r.m_correctness.m_detail;
    if (std::filesystem::exists(dir / correct_rel)) {
      u.m_correctness_file = correct_rel;
      summary = summarize_correctness(m, unit.m_impl, {dir / correct_rel});
      if (!summary.m_device.empty()) u.m_device_model = summary.m_device;
    }
  }
  u.m_bench = r.m_bench.m_status == "ok" || r.m_bench.m_status == "failed" || r.m_bench.m_status == "skipped"
                  ? r.m_bench.m_status
                  : "not_run";
  u.m_bench_detail = r.m_bench.m_detail;
  if (u.m_bench == "not_run" && u.m_correctness != "pass") {
    u.m_bench_detail = "correctness " + u.m_correctness + ": only correct implementations are timed";
  }
  const std::string bench_rel = rel_dir + unit.m_impl + ".bench.json";
  if (r.m_bench.m_status != "not_run" && std::filesystem::exists(dir / bench_rel)) {
    u.m_bench_file = bench_rel;
    const bench_set set = read_bench(dir / bench_rel);
    if (!set.m_device.empty()) u.m_device_model = set.m_device;
    if (set.m_gpu && set.m_gpu->m_uuid) u.m_device_uuid = *set.m_gpu->m_uuid;
  }
  for (const std::string& shape : m.m_shapes) {
    shape_outcome so;
    so.m_shape = shape;
    so.m_correctness = u.m_correctness == "pass" ? "pass" : "not_run";
    for (const shape_correctness& sc : summary.m_shapes) {
      if (sc.m_shape == shape) so.m_correctness = sc.m_status;
    }
    if (const point_time* t = r.time_of(shape)) so.m_median_ns = t->m_median_ns;
    u.m_shapes.push_back(so);
  }
  out << "  " << unit.m_name << ": build " << r.m_build.m_status << ", correctness " << u.m_correctness
      << ", benchmark " << u.m_bench << (r.usable() ? "" : " (" + shorten(r.failure(), 200) + ")") << "\n"
      << std::flush;
}

}  // namespace kopt::scale
