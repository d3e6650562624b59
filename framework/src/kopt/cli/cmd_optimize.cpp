// kopt optimize: one iteration of the loop for one variant:
// env -> correctness -> benchmark -> profile -> static checks -> record ->
// gate -> report.
// Without a GPU it runs what needs none, says what it skipped, and writes no
// record: a record without measurements is worthless.
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/cli/json_output.hpp"
#include "kopt/cli/parser.hpp"
#include "kopt/inputs/bench.hpp"
#include "kopt/inputs/correctness.hpp"
#include "core/format.hpp"
#include "formats/ceilings.hpp"
#include "kopt/decide/gate.hpp"
#include "kopt/run/harness_run.hpp"
#include "kopt/records/attempt.hpp"
#include "kopt/records/kernel_lock.hpp"
#include "kopt/records/record_store.hpp"
#include "kopt/cli/requests.hpp"
#include "kopt/compare/verdict.hpp"
#include "kopt/decide/gated_record.hpp"
#include "kopt/profile/capture.hpp"
#include "kopt/report/report_files.hpp"
#include "kopt/run/environment.hpp"

namespace kopt::cli {
namespace {

constexpr int k_steps = 8;

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
  if (!std::filesystem::exists(results)) return "";
  try {
    const correctness_summary s = summarize_correctness(m, variant, {results});
    return s.m_status == "skipped" ? s.m_skip_reason : "";
  } catch (const std::exception&) {
    return "";
  }
}

// A marker without a record is an optimize run that was killed before its
// verdict (records/attempt.hpp): record it as a REJECT, so that the loop
// moves on. A marker beside a record is a run killed just after writing it.
void record_unfinished_attempts(const manifest& m, std::ostream& out) {
  for (const unfinished_attempt& a : unfinished_attempts(m)) {
    record_inputs inputs;
    inputs.m_variant = a.m_variant;
    inputs.m_failure = run_failure{
        "optimize run", "no verdict: kopt was killed before it wrote the record (" + a.m_started +
                            "; SIGKILL, a crash, or a signal from the variant's own processes)"};
    write_json_new(m.record_path(a.m_variant), to_json(build_gated_record(m, inputs)));
    out << "note: " << m.m_kernel << "/" << a.m_variant << ": an earlier optimize ended without a verdict ("
        << a.m_started << "): recorded as REJECT (rule run)\n";
  }
  for (const variant_decl& v : m.m_variants) {
    std::error_code ignored;
    if (std::filesystem::exists(m.record_path(v.m_name))) std::filesystem::remove(attempt_path(m, v.m_name), ignored);
  }
}

// "" when the test's results read; else what is wrong with them. A test
// that exits 0 or 1 with results that do not read (a variant ended the
// process early, or wrote over them) is a failure of the step.
std::string unreadable_results(const manifest& m, const std::string& variant, const std::filesystem::path& results) {
  try {
    (void)summarize_correctness(m, variant, {results});
    return {};
  } catch (const std::exception& e) {
    return "its results do not read (" + shorten(e.what(), 400) + ")";
  }
}

std::string unreadable_bench(const std::filesystem::path& bench) {
  try {
    (void)read_bench(bench);
    return {};
  } catch (const std::exception& e) {
    return "its results do not read (" + shorten(e.what(), 400) + ")";
  }
}

std::optional<std::filesystem::path> skip_step(std::ostream& out, int n, const std::string& what) {
  step(out, n, what + ": not run");
  return std::nullopt;
}

// Nsight Compute on one launch per shape of the variant. A profile that
// cannot be taken (no ncu, no counter permission) still gives a document
// saying why, which the record embeds.
std::optional<std::filesystem::path> run_profile(const manifest& m, const std::string& variant,
                                                 const std::filesystem::path& run, bool quick,
                                                 const std::optional<std::string>& ceilings, std::ostream& out) {
  if (m.m_backend != "cuda") return skip_step(out, 4, "profile (host backend: no Nsight Compute)");
  const std::filesystem::path file = run / "profile.json";
  step(out, 4, "profile -> " + file.string());
  try {
    profile::capture_request request;
    request.m_impls = {variant};
    request.m_quick = quick;
    request.m_ncu = m.m_tools.m_ncu;
    request.m_work_dir = run / "profile.ncu";
    const profile::document_settings settings =
        profile::settings_for(m, {ceilings, m.m_tools.m_specs_dir, std::nullopt, std::nullopt});
    const profile::profile_document doc = profile::capture(m, request, settings, out);
    profile::print_summary(doc, out);
    const std::string& status = doc.m_status;
    if (status != "ok" && status != "unavailable") {
      out << "      profile: " << status << "; the record says profile: not run\n";
      return std::nullopt;
    }
    profile::write_documents(file, doc, out);
    return file;
  } catch (const std::exception& e) {
    out << "      profile: error: " << e.what() << "; the record says profile: not run\n";
    return std::nullopt;
  }
}

// The variant's static SASS checks, with the arguments its <k>.static.<v>
// test gives `kopt static`.
std::optional<std::filesystem::path> run_static(const manifest& m, const variant_decl& decl,
                                                const std::filesystem::path& run, std::ostream& out) {
  if (!decl.m_static) return skip_step(out, 5, "static checks (none for this variant)");
  const std::filesystem::path file = run / ("static." + decl.m_name + ".json");
  std::vector<std::string> argv = {"--manifest", m.m_path.string(), "--variant", decl.m_name, "--out", file.string()};
  for (const std::string& object : decl.m_static->m_objects) argv.insert(argv.end(), {"--objects", object});
  argv.insert(argv.end(), decl.m_static->m_args.begin(), decl.m_static->m_args.end());
  step(out, 5, "static checks -> " + file.string());
  try {
    const command* table_row = find_command("static");
    const arguments args = parse_arguments(*table_row, argv);
    if (check_machine_code(m, decl, static_request_from(args), out) == static_outcome::failed) {
      out << "      static checks: FAIL (a claimed METHOD or a limit; see the record)\n";
    }
  } catch (const std::exception& e) {
    out << "      static checks: error: " << e.what() << "\n";
  }
  if (!std::filesystem::exists(file)) {
    out << "      static checks: no result; the record says static: not run\n";
    return std::nullopt;
  }
  return file;
}

// --ablate: kopt ablate's steps on the variant just recorded, when it was
// accepted and has switchable METHODS (docs/ablation.md); its outcome never
// changes the iteration's.
void run_ablation_step(const manifest& m, const variant_decl& decl, const record& r, bool quick, std::ostream& out) {
  if (decl.m_switches.empty()) {
    out << "      ablation: not run (" << decl.m_name << " declares no switchable METHOD)\n";
    return;
  }
  if (!r.m_gate.accepted()) {
    out << "      ablation: not run (REJECT: only an accepted variant is ablated)\n";
    return;
  }
  try {
    ablation_request request;
    request.m_quick = quick;
    (void)ablate_recorded(m, r, request, k_default_threshold, out);
  } catch (const std::exception& e) {
    out << "      ablation: error: " << e.what() << "\n";
  }
}

}  // namespace

// `doc` collects the kernelopt.optimize document (--json) as the run goes.
int run_optimize(const arguments& args, std::ostream& out, std::ostream& err, optimize_output& doc) {
  const manifest m = read_manifest_of(args);
  doc.m_kernel = m.m_kernel;
  const file_lock lock = lock_kernel(m, lock_wait_option(args), "optimize", err);  // before choosing: one decision at a time
  record_unfinished_attempts(m, out);
  const record_set records = load_records(m);
  const std::string variant = choose_variant(args, m, records);
  for (const std::string& note : uncounted_notes(m, records)) out << note << "\n";
  // As the optimize-<k> build target, a decision (REJECT) or a skip (no
  // GPU) is the iteration's outcome, printed and recorded, not a build error.
  const bool as_target = args.has("--build-target");
  if (!variant.empty()) doc.m_variant = variant;
  if (variant.empty()) {
    doc.m_outcome = "nothing_left";
    const std::filesystem::path report_dir = m.kernel_records_dir() / "report";
    out << "nothing to optimize: every declared variant of " << m.m_kernel
        << " has a record; declare the next one (kernel_opt_add_variant)\n";
    step(out, 6, "report -> " + report_dir.string());
    write_report(m, report_dir, "");
    return k_exit_ok;
  }
  const variant_decl& decl = m.variant(variant);
  require_no_record(m, variant);
  // Out of declaration order the gate's order rule would reject it, and a
  // record is never rewritten: refuse before anything runs.
  const int first = records.first_unrecorded();
  if (first >= 0 && m.m_variants[static_cast<std::size_t>(first)].m_name != variant) {
    const std::string& earlier = m.m_variants[static_cast<std::size_t>(first)].m_name;
    throw usage_error(earlier + ", declared before " + variant + ", has no record: optimize " + earlier +
                      " first (the gate's order rule would reject " + variant + ", and a record is never rewritten)");
  }
  // A stale ACCEPT above the best would make the gate compare with an older
  // record: refuse, as above, rather than record a REJECT that is no
  // fault of the variant.
  if (const auto stale = stale_above_best(m, records, static_cast<std::size_t>(m.variant_index(variant)));
      !stale.empty()) {
    throw usage_error("cannot gate " + variant + ": " + describe_stale_bar(m, records, stale));
  }
  const bool quick = args.has("--quick");
  // --ceilings, else the KernelOpt_CEILINGS the build was configured with.
  std::optional<std::string> ceilings = args.optional_value("--ceilings");
  if (!ceilings && m.m_tools.m_ceilings && std::filesystem::exists(*m.m_tools.m_ceilings)) {
    ceilings = m.m_tools.m_ceilings;
  }
  if (ceilings) (void)read_ceilings(*ceilings);  // a bad file fails before anything runs
  const std::filesystem::path run = new_run_dir(m);
  // From here until the record is written, a killed kopt leaves the marker,
  // and the next optimize records this run as a REJECT.
  const attempt_marker marker(m, variant);
  out << "optimize " << m.m_kernel << "/" << variant << (quick ? " (quick)" : "") << ", run directory "
      << run.string() << "\n";

  const std::filesystem::path env_path = m.build_dir().parent_path() / "env.json";
  step(out, 1, "env -> " + env_path.string());
  write_json_atomic(env_path, to_json(probe_env()));

  std::vector<std::string> skipped;
  const std::filesystem::path results = run / ("correct." + variant + ".json");
  const std::vector<std::string> test_argv = test_command(m, variant, results);
  step(out, 2, "correctness: " + describe_command(test_argv));
  const process_result tested = run_process(test_argv, harness_limits(m));
  // A step that crashes, aborts or times out is a verdict (REJECT, rule
  // `run`), recorded with whatever it left, so that the loop moves on.
  std::optional<run_failure> failure;
  const std::string test_name = std::filesystem::path(test_argv.front()).filename().string();
  if (tested.exited(k_harness_skipped)) {
    // A skip is the harness's, which says why in its results; a variant
    // that ends the process with 77 itself does not get to skip.
    if (const std::string why = skip_reason_of(m, variant, results); !why.empty()) {
      skipped.push_back("correctness tests (" + why + ")");
    } else {
      failure = run_failure{"correctness test", tested.describe() + " (a skip) without results that say it skipped"};
    }
  } else if (!(tested.exited(0) || tested.exited(1)) || !std::filesystem::exists(results)) {
    failure = run_failure{"correctness test", tested.describe() + (std::filesystem::exists(results)
                                                                         ? std::string()
                                                                         : std::string(", writing no results"))};
  } else if (const std::string unreadable = unreadable_results(m, variant, results); !unreadable.empty()) {
    failure = run_failure{"correctness test", tested.describe() + ", but " + unreadable};
  } else {
    out << "      correctness: " << (tested.exited(0) ? "pass" : "FAIL (the gate will reject)") << "\n";
  }
  if (failure) err << "correctness: the test " << test_name << " ended with " << failure->m_cause << "\n";

  const std::filesystem::path bench = run / "bench.json";
  if (failure) {
    step(out, 3, "benchmark: not run (the correctness test did not finish)");
  } else if (const std::string why = bench_unavailable(m); !why.empty()) {
    step(out, 3, "benchmark: skipped");
    skipped.push_back("benchmark (" + why + ")");
  } else {
    const std::vector<std::string> bench_argv = bench_command(m, bench_impls(m, decl, records), bench, quick,
                                                              ceilings.value_or(""), harness_limits(m).m_limit_s);
    step(out, 3, "benchmark: " + describe_command(bench_argv));
    const process_result benched = run_process(bench_argv, harness_limits(m));
    if (benched.exited(k_harness_skipped) && !skipped.empty()) {
      skipped.push_back("benchmark (the bench exited 77: no device to time on)");
    } else if (benched.exited(k_harness_skipped)) {
      // The tests ran here, so the device is here: the benchmark has nothing
      // to skip for, and a variant must not end it with 77 to avoid a record.
      failure = run_failure{"benchmark", benched.describe() + " (a skip), although the correctness tests ran here"};
    } else if (!(benched.exited(0) || benched.exited(1)) || !std::filesystem::exists(bench)) {
      failure = run_failure{"benchmark", benched.describe() + (std::filesystem::exists(bench)
                                                                  ? std::string()
                                                                  : std::string(", writing no results"))};
    } else if (const std::string unreadable = unreadable_bench(bench); !unreadable.empty()) {
      failure = run_failure{"benchmark", benched.describe() + ", but " + unreadable};
    } else if (benched.exited(1)) {
      out << "      benchmark: some benchmarks failed (their shapes are recorded with the error)\n";
    }
    if (failure) {
      err << "benchmark: the bench " << std::filesystem::path(bench_argv.front()).filename().string()
          << " ended with " << failure->m_cause << "\n";
    }
  }

  const bool measured = skipped.empty() && !failure;
  const std::optional<std::filesystem::path> profile =
      !measured                 ? skip_step(out, 4, "profile")
      : args.has("--no-profile") ? skip_step(out, 4, "profile (--no-profile)")
                                 : run_profile(m, variant, run, quick, ceilings, out);
  const std::optional<std::filesystem::path> statics = measured ? run_static(m, decl, run, out)
                                                                : skip_step(out, 5, "static checks");

  int status = k_exit_ok;
  if (!measured && !failure) {
    step(out, 6, "record: not written (nothing measured)");
    step(out, 7, "gate: not run");
  } else {
    step(out, 6, "record -> " + m.record_path(variant).string());
    record_inputs inputs;
    inputs.m_variant = variant;
    inputs.m_correctness = {results};
    inputs.m_bench = bench;
    inputs.m_env = env_path;
    if (ceilings) inputs.m_ceilings = *ceilings;
    inputs.m_profile = profile;
    inputs.m_static = statics;
    inputs.m_failure = failure;
    const record r = build_gated_record(m, inputs);
    write_json_new(m.record_path(variant), to_json(r));
    step(out, 7, "gate");
    out << render_gate_text(m.m_kernel, variant, r.m_gate);
    record_experience(m, variant, out);
    if (args.has("--ablate")) run_ablation_step(m, decl, r, quick, out);
    doc.m_record = m.record_path(variant).string();
    doc.m_decision = r.m_gate.m_decision;
    doc.m_outcome = r.m_gate.m_decision;
    doc.m_gate = r.m_gate;
    status = r.m_gate.accepted() ? k_exit_ok : k_exit_fail;
  }

  const std::filesystem::path report_dir = m.kernel_records_dir() / "report";
  step(out, 8, "report -> " + report_dir.string());
  write_report(m, report_dir, "");

  doc.m_failure = failure;
  if (failure) return as_target ? k_exit_ok : k_exit_fail;
  if (!skipped.empty()) {
    doc.m_outcome = "skipped";
    doc.m_skipped = skipped;
    out << "SKIPPED: " << join(skipped, "; ") << "\nno record written for " << variant
        << "; run again where a GPU is visible\n";
    return as_target ? k_exit_ok : k_exit_skipped;
  }
  return as_target ? k_exit_ok : status;
}

int cmd_optimize(const arguments& args, std::ostream& out, std::ostream& err) {
  optimize_output doc;
  if (!args.has("--json")) return run_optimize(args, out, err, doc);
  const int code = run_optimize(args, err, err, doc);  // progress on stderr, the document on stdout
  doc.m_exit_code = code;
  out << to_json(doc).dump(2) << "\n";
  return code;
}

}  // namespace kopt::cli
