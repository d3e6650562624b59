#include "kopt/run/ablation_run.hpp"

#include <optional>
#include <ostream>
#include <sstream>

#include "core/json_io.hpp"
#include "core/process.hpp"
#include "formats/static_result.hpp"
#include "kopt/inputs/bench.hpp"
#include "kopt/run/harness_run.hpp"
#include "kopt/run/static_checks.hpp"

namespace kopt {
namespace {

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
    const static_result checked = read_static_result(request.m_out);
    if (checked.m_findings) {
      for (const static_claim& claim : checked.m_findings->m_methods) {
        if (claim.m_name == s.m_method) return claim.m_status == "found" ? "present" : "absent";
      }
    }
  } catch (const std::exception& e) {
    out << "      static check of " << s.m_impl << ": " << e.what() << "\n";
  }
  return "not_checked";
}

}  // namespace

ablation_measurement measure_ablation(const manifest& m, const variant_decl& decl, const ablation_request& request,
                                      const std::filesystem::path& run, std::ostream& out) {
  ablation_measurement result;
  const std::string& variant = decl.m_name;
  // The ablation's own executables in place of the kernel's.
  manifest am = m;
  am.m_test_executable = m.m_ablate_test_executable.value_or("");
  am.m_bench_executable = m.m_ablate_bench_executable.value_or("");
  for (const method_switch& s : decl.m_switches) result.m_outcomes.push_back({s, std::nullopt, "", "not_checked"});

  if (request.m_build) {
    const std::filesystem::path tree = build_tree_of(m);
    const std::string test_target = m.m_kernel + "_ablate_kopt_test";
    const std::string bench_target = m.m_kernel + "_ablate_kopt_bench";
    out << "build " << test_target << ", " << bench_target << "\n" << std::flush;
    const process_result built = build(m, tree, {test_target, bench_target});
    if (!built.exited(0)) {
      out << built.m_out << built.m_err;
      throw std::runtime_error("cannot build the ablation executables (" + built.describe() +
                               "): the variant itself or the reference does not build");
    }
    for (ablation_outcome& o : result.m_outcomes) {
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

  for (ablation_outcome& o : result.m_outcomes) {
    if (o.m_failure) continue;
    o.m_sass_without = sass_without(m, decl, o.m_switch, run, out);
    const std::filesystem::path results = run / ("correct." + o.m_switch.m_impl + ".json");
    const std::vector<std::string> argv = test_command(am, o.m_switch.m_impl, results);
    out << "correctness: " << describe_command(argv) << "\n" << std::flush;
    const process_result r = run_process(argv, harness_limits(m));
    out << "correctness " << o.m_switch.m_impl << ": ";
    if (r.exited(k_harness_skipped)) {
      out << "skipped\n";
      result.m_skipped = "the correctness test exited 77 (no device)";
      return result;
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
  for (const ablation_outcome& o : result.m_outcomes) {
    if (!o.m_failure) impls.push_back(o.m_switch.m_impl);
  }
  if (impls.size() == 1) return result;
  result.m_bench_dir = run / "bench";
  std::filesystem::create_directories(result.m_bench_dir);
  for (int i = 0; i < request.m_repetitions; ++i) {
    const std::filesystem::path file = result.m_bench_dir / ("bench." + std::to_string(i) + ".json");
    const std::vector<std::string> argv =
        bench_command(am, impls, file, request.m_quick, "", harness_limits(m).m_limit_s);
    out << "benchmark " << (i + 1) << "/" << request.m_repetitions << ": " << describe_command(argv) << "\n"
        << std::flush;
    const process_result r = run_process(argv, harness_limits(m));
    if (r.exited(k_harness_skipped)) {
      result.m_skipped = "the benchmark exited 77 (no device to time on)";
      return result;
    }
    if (!(r.exited(0) || r.exited(1)) || !std::filesystem::exists(file)) {
      throw std::runtime_error("the ablation benchmark ended with " + r.describe());
    }
    // A row of an ablated build that failed (its outputs checked wrong, it
    // threw): that build is implementation-failed.
    for (const bench_row& row : read_bench(file).m_rows) {
      if (!row.m_error) continue;
      if (row.m_impl == variant) throw std::runtime_error(variant + " failed its benchmark: " + *row.m_error);
      for (ablation_outcome& o : result.m_outcomes) {
        if (o.m_switch.m_impl == row.m_impl && !o.m_failure) {
          o.m_failure = "benchmark";
          o.m_failure_detail = "its benchmark of " + row.m_shape + " failed: " + *row.m_error;
        }
      }
    }
  }
  return result;
}

}  // namespace kopt
