// kopt baseline: the accepted best timed in N benchmark processes on this
// GPU model; per shape the median and the run-to-run spread, written beside
// the records (`<RECORDS>/<k>/perf/<variant>.<device>.json`) for `<k>.perf`.
#include <ostream>

#include "core/format.hpp"
#include "core/utc.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/cli/json_output.hpp"
#include "kopt/compare/perf_band.hpp"
#include "kopt/decide/baseline.hpp"
#include "kopt/records/record_store.hpp"
#include "kopt/run/harness_run.hpp"

namespace kopt::cli {

namespace {

// `doc` collects the kernelopt.baseline document (--json) as the run goes.
int run_baseline(const arguments& args, std::ostream& out, std::ostream& err, baseline_output& doc) {
  const manifest m = read_manifest(args.value("--manifest"));
  doc.m_kernel = m.m_kernel;
  const std::optional<std::string> runs_text = args.optional_value("--runs");
  const std::int64_t runs = runs_text ? int_option("--runs", *runs_text, static_cast<int>(k_baseline_min_runs), 1000)
                                      : k_baseline_default_runs;
  const record_set records = load_records(m);
  const record* best = records.best();
  if (best == nullptr) {
    doc.m_reason = "no accepted record of " + m.m_kernel + " yet: nothing to measure a baseline for";
    out << "SKIPPED: " << *doc.m_reason << "\n";
    return k_exit_skipped;
  }
  doc.m_best = best->m_variant;
  if (const std::string why = bench_unavailable(m); !why.empty()) {
    doc.m_reason = why;
    out << "SKIPPED: " << why << "\n";
    return k_exit_skipped;
  }
  if (m.expects_failure(best->m_variant)) {
    err << "kopt baseline: the best record is " << best->m_variant << "'s, declared EXPECT_FAILURE: mask it first\n";
    return k_exit_fail;
  }
  const std::filesystem::path dir = new_run_dir(m);
  std::vector<bench_set> measured;
  for (std::int64_t i = 0; i < runs; ++i) {
    const std::filesystem::path bench = dir / ("baseline." + std::to_string(i) + ".json");
    const std::vector<std::string> argv =
        bench_command(m, {best->m_variant}, bench, args.has("--quick"), "", harness_limits(m, 0.9).m_limit_s);
    out << "baseline " << m.m_kernel << " " << best->m_variant << ": run " << (i + 1) << "/" << runs << ": "
        << describe_command(argv) << "\n"
        << std::flush;
    const process_result ran = run_process(argv, harness_limits(m, 0.9));
    if (ran.exited(k_harness_skipped)) {
      doc.m_reason = "the benchmark exited 77 (no device to time on)";
      out << "SKIPPED: the benchmark exited 77 (no device to time on)\n";
      return k_exit_skipped;
    }
    if (!ran.exited(0)) {
      err << "kopt baseline: the benchmark " << std::filesystem::path(argv.front()).filename().string()
          << " ended with " << ran.describe() << "\n";
      return k_exit_fail;
    }
    measured.push_back(read_bench(bench));
  }
  const perf_baseline b = measure_baseline(*best, measured, utc_now_iso());
  const std::filesystem::path path = baseline_path(m, best->m_variant, b.m_device);
  std::filesystem::create_directories(path.parent_path());
  const bool replaced = std::filesystem::exists(path);
  write_json_atomic(path, to_json(b));
  doc.m_file = path.string();
  doc.m_replaced = replaced;
  doc.m_baseline = b;
  out << "\n| shape | median | run-to-run spread | band at threshold " << format_percent(threshold_option(args))
      << " |\n|---|---:|---:|---:|\n";
  for (const baseline_shape& s : b.m_shapes) {
    out << "| " << s.m_shape << " | " << format_time_ns(s.m_median_ns) << " | " << format_percent(s.m_spread)
        << " | " << format_percent(std::max(threshold_option(args), spread_band(s.m_spread, b.m_runs))) << " |\n";
  }
  out << "| geomean | " << format_time_ns(geometric_mean(b.m_run_geomeans_ns)) << " | "
      << format_percent(b.m_geomean_spread) << " | "
      << format_percent(std::max(threshold_option(args), spread_band(b.m_geomean_spread, b.m_runs))) << " |\n\n"
      << (replaced ? "replaced " : "wrote ") << path.string() << " (" << b.m_device << ", " << b.m_runs
      << " runs" << (b.m_gpus.empty() ? "" : ", boards " + join(b.m_gpus, " ")) << ")\n";
  return k_exit_ok;
}

}  // namespace

int cmd_baseline(const arguments& args, std::ostream& out, std::ostream& err) {
  baseline_output doc;
  if (!args.has("--json")) return run_baseline(args, out, err, doc);
  const int code = run_baseline(args, err, err, doc);  // progress on stderr, the document on stdout
  doc.m_outcome = code == k_exit_ok ? "ok" : code == k_exit_skipped ? "skipped" : "fail";
  doc.m_exit_code = code;
  out << to_json(doc).dump(2) << "\n";
  return code;
}

}  // namespace kopt::cli
