// kopt perf: the `<k>.perf` test. Benchmarks the accepted best variant and
// compares it, shape by shape, with its baseline for this GPU model (kopt
// baseline: N runs, measured spread) or else the timing in its record, in
// the band of compare/perf_band.hpp; checks that every TARGET that held in
// the record still holds. --missing fail turns every skip into a failure.
#include <ostream>

#include "core/expr.hpp"
#include "kopt/decide/assemble.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/cli/json_output.hpp"
#include "core/format.hpp"
#include "kopt/run/harness_run.hpp"
#include "kopt/records/record_store.hpp"
#include "kopt/decide/targets.hpp"
#include "kopt/compare/compare_document.hpp"
#include "kopt/compare/perf_band.hpp"
#include "kopt/compare/verdict.hpp"
#include "kopt/records/perf_baseline.hpp"

namespace kopt::cli {
namespace {

// What the TARGETs compare the best with (speedup_vs_<name>): timed beside it.
std::vector<std::string> compared_impls(const manifest& m, const record& best) {
  std::vector<std::string> impls;
  for (const std::string& target : m.m_targets) {
    std::vector<std::string> names;
    try {
      names = referenced_names(target);
    } catch (const expr_error&) {
      continue;  // evaluate_targets reports it
    }
    for (const std::string& name : names) {
      if (name.rfind("speedup_vs_", 0) != 0) continue;
      const std::string other = name.substr(std::string("speedup_vs_").size());
      if (other != "parent") {
        impls.push_back(other);
      } else if (best.m_parent) {
        impls.push_back(*best.m_parent);
      }
    }
  }
  return impls;
}

std::vector<timing_point> points_of(const std::string& impl, const timing_summary& timing) {
  std::vector<timing_point> points;
  for (const shape_timing& s : timing.m_shapes) {
    if (!s.m_error) points.push_back({impl, s.m_shape.text(), s.m_stats});
  }
  return points;
}

std::string uuid_of(const std::optional<gpu_info>& gpu) { return gpu ? gpu->uuid_or_empty() : std::string(); }

}  // namespace

// `doc` collects the kernelopt.perf document (--json) as the run goes.
int run_perf(const arguments& args, std::ostream& out, std::ostream& err, perf_output& doc) {
  const std::string missing = args.optional_value("--missing").value_or("skip");
  if (missing != "skip" && missing != "fail")
    throw usage_error("--missing must be skip or fail, got '" + shorten(missing) + "'");
  // The gate did not run: a skip (exit 77) by default; with --missing fail
  // (KernelOpt_PERF_MISSING=fail, for GPU runners) a failure.
  auto not_run = [&](const std::string& why) {
    doc.m_reason = why;
    if (missing == "fail") {
      out << "FAIL: the perf gate did not run (--missing fail): " << why << "\n";
      return k_exit_fail;
    }
    out << "SKIPPED: " << why << "\n";
    return k_exit_skipped;
  };
  const manifest m = read_manifest(args.value("--manifest"));
  doc.m_kernel = m.m_kernel;
  const record_set records = load_records(m);
  const record* best = records.best();
  for (const std::string& note : uncounted_notes(m, records)) out << note << "\n";
  if (best != nullptr) doc.m_best = best->m_variant;
  if (best == nullptr) {
    return not_run("no accepted record of " + m.m_kernel + " yet (" + m.kernel_records_dir().string() +
                   "): nothing to guard");
  }
  if (const std::string why = bench_unavailable(m); !why.empty()) return not_run(why);
  if (m.expects_failure(best->m_variant)) {
    err << "kopt perf: the best record is " << best->m_variant << "'s, but " << best->m_variant
        << " is declared EXPECT_FAILURE (known to be incorrect): mask its record (kopt mask) so that perf guards "
           "a correct variant\n";
    return k_exit_fail;
  }
  std::vector<std::string> impls = {best->m_variant};
  for (const std::string& other : compared_impls(m, *best)) {
    // Its rows would fail their output check and fail the benchmark; a
    // TARGET over it is reported as not evaluated.
    if (m.expects_failure(other)) {
      out << "note: " << other << " is declared EXPECT_FAILURE (known to be incorrect): not timed\n";
    } else {
      impls.push_back(other);
    }
  }
  const std::filesystem::path bench = new_run_dir(m) / "perf.json";
  const std::vector<std::string> argv =
      bench_command(m, impls, bench, args.has("--quick"), "", harness_limits(m, 0.9).m_limit_s);
  out << "perf " << m.m_kernel << ": best is " << best->m_variant << "; " << describe_command(argv) << "\n"
      << std::flush;
  const process_result ran = run_process(argv, harness_limits(m, 0.9));
  if (ran.exited(k_harness_skipped)) return not_run("the benchmark exited 77 (no device to time on)");
  if (!ran.exited(0)) {
    err << "kopt perf: the benchmark " << std::filesystem::path(argv.front()).filename().string() << " ended with "
        << ran.describe() << "\n";
    return k_exit_fail;
  }
  const bench_set measured = read_bench(bench);
  const std::string this_gpu = uuid_of(measured.m_gpu);
  // The reference: this model's baseline when it measured these sources,
  // else the record when it was timed on this model.
  std::optional<perf_baseline> baseline;
  std::string baseline_file;
  if (!measured.m_device.empty()) {
    const std::filesystem::path path = baseline_path(m, best->m_variant, measured.m_device);
    baseline = read_perf_baseline(path);
    baseline_file = path.string();
    if (baseline && (baseline->m_source_sha256 != best->m_source.m_sha256 || baseline->m_device != measured.m_device ||
                     baseline->m_variant != best->m_variant)) {
      out << "note: " << baseline_file << " measured other sources, variant or device than " << best->m_variant
          << "'s record: not used (run kopt baseline again)\n";
      baseline.reset();
    }
  }
  const bool same_model =
      best->m_timing.m_device.empty() || measured.m_device.empty() || best->m_timing.m_device == measured.m_device;
  if (!baseline && !same_model) {
    return not_run(best->m_variant + " was timed on " + best->m_timing.m_device + ", this run on " + measured.m_device +
                   ", and there is no baseline for " + measured.m_device + " (" + baseline_file +
                   "): times from different devices do not compare (record one on this model: kopt baseline --manifest " +
                   args.value("--manifest") + ")");
  }
  const std::string recorded_gpu = uuid_of(best->m_timing.m_gpu);
  if (!baseline && !recorded_gpu.empty() && !this_gpu.empty() && recorded_gpu != this_gpu) {
    out << "note: the record was timed on " << recorded_gpu << ", this run on " << this_gpu
        << ": two boards of one model differ by a few percent (docs/ci-gating.md)\n";
  }
  const perf_reference reference =
      perf_reference_for(*best, baseline, baseline_file, this_gpu, threshold_option(args), same_model);
  out << "reference: " << reference.m_source << "\n";
  for (const std::string& note : reference.m_notes) out << note << "\n";
  const timing_summary now = build_timing(m, measured, best->m_variant, best->m_parent, std::nullopt,
                                          best->m_ceilings ? &*best->m_ceilings : nullptr);

  const compare_result result = compute_verdicts(reference.m_points, points_of(best->m_variant, now),
                                                 threshold_option(args), reference.m_geomean_band);
  if (result.m_rows.empty()) {
    throw std::runtime_error("none of the benchmarked shapes is in the record of " + best->m_variant +
                             (args.has("--quick") ? ": run without --quick" : ""));
  }
  out << render_compare_markdown(result, reference.m_source, "this run");
  doc.m_compare = compare_document{reference.m_source, "this run", k_noise_sigmas, result};

  bool target_lost = false;
  const std::vector<target_result> before = evaluate_targets(m.m_targets, best->m_timing, best->m_ceilings);
  const std::vector<target_result> after = evaluate_targets(m.m_targets, now, best->m_ceilings);
  for (std::size_t i = 0; i < after.size(); ++i) {
    // Only a definite "does not hold" fails; a target this run cannot
    // evaluate (a quick run, an implementation not timed) is reported.
    const bool lost = before[i].m_status == "met" && after[i].m_status == "unmet";
    target_lost = target_lost || lost;
    doc.m_targets.push_back({after[i].m_target, after[i].m_status, before[i].m_status, lost});
    out << "target " << after[i].m_target << ": " << after[i].m_status << " (record: " << before[i].m_status
        << ")" << (lost ? "  <- no longer holds" : "") << "\n";
    for (const std::string& detail : after[i].m_details) out << "    " << detail << "\n";
  }
  if (result.any_slower() || target_lost) {
    out << "FAIL: " << (result.any_slower() ? "slower than the " + std::string(baseline ? "baseline" : "record") + " beyond band and noise" : "")
        << (result.any_slower() && target_lost ? "; " : "") << (target_lost ? "a TARGET no longer holds" : "")
        << "\n";
    return k_exit_fail;
  }
  out << "ok: no SLOWER shape" << (m.m_targets.empty() ? "" : ", every TARGET that held still holds") << "\n";
  return k_exit_ok;
}

int cmd_perf(const arguments& args, std::ostream& out, std::ostream& err) {
  perf_output doc;
  if (!args.has("--json")) return run_perf(args, out, err, doc);
  const int code = run_perf(args, err, err, doc);  // progress on stderr, the document on stdout
  doc.m_outcome = code == k_exit_ok ? "ok" : code == k_exit_skipped ? "skipped" : "fail";
  doc.m_exit_code = code;
  out << to_json(doc).dump(2) << "\n";
  return code;
}

}  // namespace kopt::cli
