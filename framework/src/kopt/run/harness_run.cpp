#include "kopt/run/harness_run.hpp"

#include <algorithm>

#include "core/format.hpp"
#include "core/utc.hpp"

namespace kopt {

std::string bench_unavailable(const manifest& m) {
  if (m.m_bench_executable.empty()) {
    return "no benchmark executable for " + m.m_kernel + " (is Google Benchmark found at configure time?)";
  }
  return {};
}

std::string bench_filter(const std::string& kernel, const std::vector<std::string>& impls) {
  std::vector<std::string> unique;
  for (const std::string& impl : impls) {
    if (std::find(unique.begin(), unique.end(), impl) == unique.end()) unique.push_back(impl);
  }
  return "^" + kernel + "/(" + join(unique, "|") + ")/";
}

std::vector<std::string> test_command(const manifest& m, const std::string& variant,
                                      const std::filesystem::path& results) {
  return {m.m_test_executable, "--gtest_filter=" + variant + ".*", "--kopt_results=" + results.string()};
}

std::vector<std::string> bench_command(const manifest& m, const std::vector<std::string>& impls,
                                       const std::filesystem::path& out, bool quick,
                                       const std::string& ceilings, double limit_s) {
  std::vector<std::string> argv = {m.m_bench_executable,
                                   "--benchmark_filter=" + bench_filter(m.m_kernel, impls),
                                   "--benchmark_out=" + out.string(), "--benchmark_out_format=json"};
  if (quick) argv.push_back("--kopt_quick");
  if (!ceilings.empty()) argv.push_back("--kopt_ceilings=" + ceilings);
  // The bench's own watchdog fires first and names what hung.
  if (limit_s > 0) argv.push_back("--kopt_timeout=" + std::to_string(static_cast<long long>(limit_s * k_watchdog_share)));
  return argv;
}

process_options harness_limits(const manifest& m, double share) {
  process_options options;
  const double base = m.m_test_timeout_s.value_or(k_limit_harness_s);
  options.m_limit_s = share * base;
  std::string source = m.m_test_timeout_s ? "the kernel's TIMEOUT" : "kopt's default; the manifest has no test_timeout_s";
  if (share != 1.0) source = std::to_string(static_cast<int>(share * 100 + 0.5)) + "% of " + source;
  options.m_limit_source = source;
  return options;
}

std::filesystem::path new_run_dir(const manifest& m) {
  const std::filesystem::path base = m.build_dir() / "runs" / utc_now_compact();
  std::filesystem::path dir = base;
  // Two runs in the same second (or under SOURCE_DATE_EPOCH) get their own directory.
  for (int n = 2; std::filesystem::exists(dir); ++n) dir = base.string() + "-" + std::to_string(n);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace kopt
