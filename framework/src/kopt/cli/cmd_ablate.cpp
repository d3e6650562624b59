// kopt ablate: each switchable METHOD of a variant (METHODS <method>=<MACRO>)
// switched off: the ablated builds are built one by one (a build that does
// not compile is a result: implementation-failed), checked against the
// reference, timed with the variant in the same benchmark processes, and
// each method's attribution and class is written into the variant's record
// (docs/ablation.md).
#include <ostream>
#include <sstream>

#include "core/format.hpp"
#include "core/utc.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/compare/attribution.hpp"
#include "kopt/inputs/bench.hpp"
#include "kopt/records/kernel_lock.hpp"
#include "kopt/records/record_store.hpp"
#include "kopt/report/report_model.hpp"
#include "kopt/run/harness_run.hpp"
#include "kopt/run/static_checks.hpp"

namespace kopt::cli {
namespace {

inline constexpr int k_default_repetitions = 3;
inline constexpr double k_build_limit_s = 1800;

// The top of the build tree: the first folder above the manifest's that
// holds a CMakeCache.txt (the manifest is <build>/.../kernelopt/<k>/).
std::filesystem::path build_tree_of(const manifest& m) {
  for (std::filesystem::path dir = std::filesystem::absolute(m.build_dir()); !dir.empty(); dir = dir.parent_path()) {
    if (std::filesystem::exists(dir / "CMakeCache.txt")) return dir;
    if (dir == dir.parent_path()) break;
  }
  throw std::runtime_error("no CMakeCache.txt above " + m.build_dir().string() + ": cannot build the ablated modules");
}

// The last lines of a failed build that name an error, for the record.
std::string build_error_line(const process_result& r) {
  const std::string text = r.m_out + "\n" + r.m_err;
  std::string found;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    if (found.empty() && (line.find("error") != std::string::npos || line.find("Error") != std::string::npos)) {
      found = line;
    }
    start = end + 1;
  }
  if (found.size() > 300) found = found.substr(0, 300) + "...";
  return found.empty() ? r.describe() : found;
}

process_result build(const manifest& m, const std::filesystem::path& tree, const std::vector<std::string>& targets) {
  std::vector<std::string> argv = {*m.m_cmake_executable, "--build", tree.string()};
  for (const std::string& t : targets) argv.insert(argv.end(), {"--target", t});
  process_options options;
  options.m_limit_s = k_build_limit_s;
  options.m_limit_source = "kopt ablate's build limit";
  options.m_capture = true;
  return run_process(argv, options);
}

// The method's SASS signature in the ablated build's own kernels (CUDA
// variants with a static check), through the variant's own static check
// (its regex, its cuobjdump) on the ablated objects:
// present | absent | no_signature | not_checked.
std::string sass_without(const manifest& m, const variant_decl& decl, const method_switch& s,
                         const std::filesystem::path& run, std::ostream& out) {
  if (m.m_backend != "cuda" || !decl.m_static || s.m_objects.empty()) return "not_checked";
  std::optional<std::string> regex;
  static_request request;
  const std::vector<std::string>& a = decl.m_static->m_args;
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    if (a[i] == "--method-signature" && a[i + 1].rfind(s.m_method + "=", 0) == 0) {
      regex = a[i + 1].substr(s.m_method.size() + 1);
    }
    if (a[i] == "--cuobjdump") request.m_cuobjdump = a[i + 1];
  }
  if (!regex) return "not_checked";
  if (regex->empty()) return "no_signature";
  variant_decl ablated = decl;
  ablated.m_name = s.m_impl;
  ablated.m_methods = {s.m_method};
  request.m_objects = s.m_objects;
  request.m_method_signatures = {s.m_method + "=" + *regex};
  request.m_out = run / ("static." + s.m_impl + ".json");
  try {
    std::ostringstream table;  // the variant's own static test prints its table; here only the verdict
    if (check_machine_code(m, ablated, request, table) == static_outcome::skipped) return "not_checked";
    const json doc = read_json_file(request.m_out);
    for (const json& claim : doc.at("methods")) {
      if (claim.at("name") == s.m_method) return claim.at("status") == "found" ? "present" : "absent";
    }
  } catch (const std::exception& e) {
    out << "      static check of " << s.m_impl << ": " << e.what() << "\n";
  }
  return "not_checked";
}

// The variant: --variant, else the accepted best.
const record* choose_record(const arguments& args, const manifest& m, const record_set& records) {
  if (const auto v = args.optional_value("--variant")) {
    (void)m.variant(*v);
    const record* r = records.get(m, *v);
    if (r == nullptr) {
      throw usage_error("variant '" + *v + "' has no record: kopt ablate writes into it, record it first (kopt optimize)");
    }
    return r;
  }
  return records.best();
}

}  // namespace

int run_ablate(const arguments& args, std::ostream& out, std::ostream& err, json& doc) {
  const manifest m = read_manifest_of(args);
  const file_lock lock = lock_kernel(m, lock_wait_option(args), "ablate", err);
  const record_set records = load_records(m);
  const record* chosen = choose_record(args, m, records);
  if (chosen == nullptr) {
    out << "SKIPPED: no accepted record of " << m.m_kernel << " yet: nothing to ablate (or name one with --variant)\n";
    return args.has("--build-target") ? k_exit_ok : k_exit_skipped;
  }
  const std::string variant = chosen->m_variant;
  doc["variant"] = variant;
  const variant_decl& decl = m.variant(variant);
  if (decl.m_switches.empty()) {
    throw usage_error("variant '" + variant + "' declares no switchable METHOD (METHODS <method>=<MACRO>)");
  }
  if (const record_status* status = records.status(m, variant); status != nullptr && !status->current()) {
    throw usage_error("the record of " + variant + " is not current (" + status->describe(*chosen) +
                      "): the ablation would measure other code than the record's");
  }
  if (!m.m_ablate_test_executable || !m.m_ablate_bench_executable) {
    throw usage_error("the manifest names no ablation executables: reconfigure the build");
  }
  const int repetitions = args.optional_value("--repetitions")
                              ? int_option("--repetitions", args.value("--repetitions"), 1, 100)
                              : k_default_repetitions;
  const double threshold = threshold_option(args);
  const bool quick = args.has("--quick");

  // The ablation's own executables in place of the kernel's.
  manifest am = m;
  am.m_test_executable = *m.m_ablate_test_executable;
  am.m_bench_executable = *m.m_ablate_bench_executable;

  const std::filesystem::path run = new_run_dir(m) / "ablate";
  std::filesystem::create_directories(run);
  out << "ablate " << m.m_kernel << "/" << variant << ": " << decl.m_switches.size() << " switchable method"
      << (decl.m_switches.size() == 1 ? "" : "s") << ", run directory " << run.string() << "\n";

  std::vector<ablation_outcome> outcomes;
  for (const method_switch& s : decl.m_switches) outcomes.push_back({s, std::nullopt, ""});

  if (!args.has("--no-build")) {
    if (!m.m_cmake_executable) throw usage_error("the manifest names no cmake: reconfigure the build, or --no-build");
    const std::filesystem::path tree = build_tree_of(m);
    const std::string test_target = m.m_kernel + "_ablate_kopt_test";
    const std::string bench_target = m.m_kernel + "_ablate_kopt_bench";
    out << "build " << test_target << ", " << bench_target << "\n" << std::flush;
    const process_result built = build(m, tree, {test_target, bench_target});
    if (!built.exited(0)) {
      err << built.m_out << built.m_err;
      throw std::runtime_error("cannot build the ablation executables (" + built.describe() +
                               "): the variant itself or the reference does not build");
    }
    for (ablation_outcome& o : outcomes) {
      out << "build " << o.m_switch.m_target << " (" << o.m_switch.m_macro << "=0): " << std::flush;
      const process_result r = build(m, tree, {o.m_switch.m_target});
      if (r.exited(0)) {
        out << "ok\n";
      } else {
        o.m_failure = "build";
        o.m_failure_detail = "the build with " + o.m_switch.m_macro + "=0 failed: " + build_error_line(r);
        out << "FAILED: " << o.m_failure_detail << "\n";
      }
    }
  }

  for (ablation_outcome& o : outcomes) {
    if (o.m_failure) continue;
    const std::filesystem::path results = run / ("correct." + o.m_switch.m_impl + ".json");
    const std::vector<std::string> argv = test_command(am, o.m_switch.m_impl, results);
    out << "correctness: " << describe_command(argv) << "\n" << std::flush;
    const process_result r = run_process(argv, harness_limits(m));
    out << "correctness " << o.m_switch.m_impl << ": ";
    if (r.exited(k_harness_skipped)) {
      out << "skipped\nSKIPPED: the correctness test exited 77 (no device); nothing measured, nothing written\n";
      return args.has("--build-target") ? k_exit_ok : k_exit_skipped;
    }
    if (r.exited(0)) {
      out << "pass\n";
    } else if (r.exited(1)) {
      o.m_failure = "incorrect";
      o.m_failure_detail = "with " + o.m_switch.m_macro + "=0 the outputs differ from the reference (" +
                           results.filename().string() + ")";
      out << "FAIL\n";
    } else {
      o.m_failure = "crashed";
      o.m_failure_detail = "with " + o.m_switch.m_macro + "=0 the correctness test ended with " + r.describe();
      out << r.describe() << "\n";
    }
  }

  std::vector<std::string> impls = {variant};
  for (const ablation_outcome& o : outcomes) {
    if (!o.m_failure) impls.push_back(o.m_switch.m_impl);
  }
  const std::filesystem::path bench_dir = run / "bench";
  std::filesystem::create_directories(bench_dir);
  if (impls.size() > 1) {
    for (int i = 0; i < repetitions; ++i) {
      const std::filesystem::path file = bench_dir / ("bench." + std::to_string(i) + ".json");
      const std::vector<std::string> argv =
          bench_command(am, impls, file, quick, "", harness_limits(m).m_limit_s);
      out << "benchmark " << (i + 1) << "/" << repetitions << ": " << describe_command(argv) << "\n" << std::flush;
      const process_result r = run_process(argv, harness_limits(m));
      if (r.exited(k_harness_skipped)) {
        out << "SKIPPED: the benchmark exited 77 (no device to time on); nothing written\n";
        return args.has("--build-target") ? k_exit_ok : k_exit_skipped;
      }
      if (!(r.exited(0) || r.exited(1)) || !std::filesystem::exists(file)) {
        throw std::runtime_error("the ablation benchmark ended with " + r.describe());
      }
      // A row of an ablated build that failed (its outputs checked wrong,
      // it threw): that build is implementation-failed.
      for (const bench_row& row : read_bench(file).m_rows) {
        if (!row.m_error) continue;
        if (row.m_impl == variant) throw std::runtime_error(variant + " failed its benchmark: " + *row.m_error);
        for (ablation_outcome& o : outcomes) {
          if (o.m_switch.m_impl == row.m_impl && !o.m_failure) {
            o.m_failure = "benchmark";
            o.m_failure_detail = "its benchmark of " + row.m_shape + " failed: " + *row.m_error;
          }
        }
      }
    }
  }

  ablation_result result;
  result.m_utc = utc_now_iso();
  result.m_source_sha256 = chosen->m_source.m_sha256;
  result.m_threshold = threshold;
  result.m_repetitions = repetitions;
  result.m_quick = quick;
  const std::vector<timing_point> points =
      impls.size() > 1 ? load_timing_points(bench_dir) : std::vector<timing_point>{};
  result.m_methods = compute_attribution(variant, points, outcomes, threshold);
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i].m_failure && *outcomes[i].m_failure == "build") continue;
    result.m_methods[i].m_sass_without = sass_without(m, decl, outcomes[i].m_switch, run, out);
  }

  const std::filesystem::path path = m.record_path(variant);
  json record_doc = read_json_file(path);
  check_kind(record_doc, path, "kernelopt.record", k_record_schema_version);
  (void)record_from_json(record_doc, path.string());  // a valid record before we touch it
  // Edit the document rather than re-serialize the record (as kopt mask): every other byte stays.
  record_doc["ablation"] = to_json(result);
  write_json_atomic(path, record_doc);

  out << "\n" << render_ablation_markdown(result) << "\nwritten into " << path.string() << "\n";
  doc["record"] = path.string();
  doc["ablation"] = to_json(result);
  return k_exit_ok;
}

int cmd_ablate(const arguments& args, std::ostream& out, std::ostream& err) {
  json doc = {{"schema_version", 1}, {"kind", "kernelopt.ablate"}, {"variant", nullptr}, {"record", nullptr},
              {"ablation", nullptr}};
  if (!args.has("--json")) return run_ablate(args, out, err, doc);
  const int code = run_ablate(args, err, err, doc);  // progress on stderr, the document on stdout
  doc["exit_code"] = code;
  out << doc.dump(2) << "\n";
  return code;
}

}  // namespace kopt::cli
