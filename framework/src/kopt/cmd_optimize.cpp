// kopt optimize: one iteration of the loop for one variant:
// env -> correctness -> benchmark -> record -> gate -> report.
// Without a GPU it runs what needs none, says what it skipped, and writes no
// record: a record without measurements is worthless.
#include <ostream>

#include "kopt/commands.hpp"
#include "kopt/correctness.hpp"
#include "kopt/format.hpp"
#include "kopt/gate.hpp"
#include "kopt/harness_run.hpp"
#include "kopt/record_store.hpp"
#include "kopt/steps.hpp"

namespace kopt::cli {
namespace {

constexpr int k_steps = 6;

void step(std::ostream& out, int n, const std::string& text) {
  out << "[" << n << "/" << k_steps << "] " << text << "\n" << std::flush;
}

// The implementations timed beside `variant`: itself, parent, best so far,
// reference, baselines.
std::vector<std::string> bench_impls(const manifest& m, const variant_decl& v, const record_set& records) {
  std::vector<std::string> impls = {v.m_name};
  if (v.m_parent) impls.push_back(*v.m_parent);
  if (const record* best = records.best_before(static_cast<std::size_t>(m.variant_index(v.m_name)))) {
    impls.push_back(best->m_variant);
  }
  if (m.m_reference) impls.push_back(m.m_reference->m_name);
  for (const impl_decl& baseline : m.m_baselines) impls.push_back(baseline.m_name);
  return impls;
}

// The variant to run, or "" when every declared variant has a record.
std::string choose_variant(const arguments& args, const manifest& m, const record_set& records) {
  if (const auto v = args.optional_value("--variant")) return m.variant(*v).m_name;
  const int next = records.first_unrecorded();
  if (next < 0) return {};
  return m.m_variants[static_cast<std::size_t>(next)].m_name;
}

// Why the results file says the run was skipped, or "" when it was not.
std::string skip_reason_of(const manifest& m, const std::string& variant,
                           const std::filesystem::path& results) {
  if (!std::filesystem::exists(results)) return "the test exited 77 and wrote no results";
  const correctness_summary s = summarize_correctness(m, variant, {results});
  return s.m_status == "skipped" ? s.m_skip_reason : "";
}

}  // namespace

int cmd_optimize(const arguments& args, std::ostream& out, std::ostream& err) {
  const manifest m = read_manifest(args.value("--manifest"));
  const record_set records = load_records(m);
  const std::string variant = choose_variant(args, m, records);
  // As the optimize-<k> build target, a decision (REJECT) or a skip (no
  // GPU) is the iteration's outcome, printed and recorded, not a build error.
  const bool as_target = args.has("--build-target");
  if (variant.empty()) {
    const std::filesystem::path report_dir = m.kernel_records_dir() / "report";
    out << "nothing to optimize: every declared variant of " << m.m_kernel
        << " has a record; declare the next one (kernel_opt_add_variant)\n";
    step(out, 6, "report -> " + report_dir.string());
    write_report(m, report_dir, "");
    return k_exit_ok;
  }
  const variant_decl& decl = m.variant(variant);
  require_no_record(m, variant);
  const bool quick = args.has("--quick");
  if (const auto c = args.optional_value("--ceilings")) {
    (void)read_ceilings_document(*c);  // a bad file fails before anything runs
  }
  const std::filesystem::path run = new_run_dir(m);
  out << "optimize " << m.m_kernel << "/" << variant << (quick ? " (quick)" : "") << ", run directory "
      << run.string() << "\n";

  const std::filesystem::path env_path = m.build_dir().parent_path() / "env.json";
  step(out, 1, "env -> " + env_path.string());
  write_json_atomic(env_path, env_document());

  std::vector<std::string> skipped;
  const std::filesystem::path results = run / ("correct." + variant + ".json");
  const std::vector<std::string> test_argv = test_command(m, variant, results);
  step(out, 2, "correctness: " + describe_command(test_argv));
  const process_result tested = run_process(test_argv);
  bool broken = false;
  if (tested.exited(k_harness_skipped)) {
    skipped.push_back("correctness tests (" + skip_reason_of(m, variant, results) + ")");
  } else if (!(tested.exited(0) || tested.exited(1)) || !std::filesystem::exists(results)) {
    err << "correctness: the test ended with " << tested.describe() << " and "
        << (std::filesystem::exists(results) ? "its results may be partial" : "wrote no results") << "\n";
    broken = true;
  } else {
    out << "      correctness: " << (tested.exited(0) ? "pass" : "FAIL (the gate will reject)") << "\n";
  }

  const std::filesystem::path bench = run / "bench.json";
  if (const std::string why = bench_unavailable(m); !why.empty()) {
    step(out, 3, "benchmark: skipped");
    skipped.push_back("benchmark (" + why + ")");
  } else {
    const std::vector<std::string> bench_argv = bench_command(m, bench_impls(m, decl, records), bench, quick,
                                                              args.optional_value("--ceilings").value_or(""));
    step(out, 3, "benchmark: " + describe_command(bench_argv));
    const process_result benched = run_process(bench_argv);
    if (benched.exited(k_harness_skipped)) {
      skipped.push_back("benchmark (the bench exited 77: no device to time on)");
    } else if (!(benched.exited(0) || benched.exited(1)) || !std::filesystem::exists(bench)) {
      err << "benchmark: the bench ended with " << benched.describe()
          << (std::filesystem::exists(bench) ? "" : " and wrote no results") << "\n";
      broken = true;
    } else if (benched.exited(1)) {
      out << "      benchmark: some benchmarks failed (their shapes are recorded with the error)\n";
    }
  }

  int status = k_exit_ok;
  if (!skipped.empty() || broken) {
    step(out, 4, "record: not written (" + std::string(broken ? "a step failed" : "nothing measured") + ")");
    step(out, 5, "gate: not run");
  } else {
    step(out, 4, "record -> " + m.record_path(variant).string());
    record_inputs inputs;
    inputs.m_variant = variant;
    inputs.m_correctness = {results};
    inputs.m_bench = bench;
    inputs.m_env = env_path;
    if (const auto c = args.optional_value("--ceilings")) inputs.m_ceilings = *c;
    const record r = build_gated_record(m, inputs);
    write_json_atomic(m.record_path(variant), to_json(r));
    step(out, 5, "gate");
    out << render_gate_text(m.m_kernel, variant, r.m_gate);
    status = r.m_gate.accepted() ? k_exit_ok : k_exit_fail;
  }

  const std::filesystem::path report_dir = m.kernel_records_dir() / "report";
  step(out, 6, "report -> " + report_dir.string());
  write_report(m, report_dir, "");

  if (broken) return k_exit_fail;
  if (!skipped.empty()) {
    out << "SKIPPED: " << join(skipped, "; ") << "\nno record written for " << variant
        << "; run again where a GPU is visible\n";
    return as_target ? k_exit_ok : k_exit_skipped;
  }
  return as_target ? k_exit_ok : status;
}

}  // namespace kopt::cli
