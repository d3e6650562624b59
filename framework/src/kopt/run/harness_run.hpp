// Runs the kernel's generated executables (manifest.executables) the way
// CTest and the CMake targets do: argv only, never a shell string.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kopt/inputs/manifest.hpp"
#include "core/process.hpp"

namespace kopt {

inline constexpr int k_harness_skipped = 77;

// Why the manifest's bench executable cannot be run, or "" when it can:
// a kernel without a benchmark target has an empty path there.
[[nodiscard]] std::string bench_unavailable(const manifest& m);

// "^softmax/(v2|v1|reference|cub)/": the listed implementations, each once.
[[nodiscard]] std::string bench_filter(const std::string& kernel, const std::vector<std::string>& impls);

// <test> --gtest_filter=<variant>.* --kopt_results=<results>
[[nodiscard]] std::vector<std::string> test_command(const manifest& m, const std::string& variant,
                                                    const std::filesystem::path& results);
// <bench> --benchmark_filter=... --benchmark_out=<out> --benchmark_out_format=json
//         [--kopt_quick] [--kopt_ceilings=<ceilings>]
// With `limit_s` (kopt's limit on the process), also --kopt_timeout at
// k_watchdog_share of it: the bench's own watchdog names what hung first.
inline constexpr double k_watchdog_share = 0.95;
[[nodiscard]] std::vector<std::string> bench_command(const manifest& m, const std::vector<std::string>& impls,
                                                     const std::filesystem::path& out, bool quick,
                                                     const std::string& ceilings = "", double limit_s = 0);

// The time limit of a test or benchmark process kopt runs: `share` of the
// kernel's TIMEOUT (manifest test_timeout_s), else of k_limit_harness_s.
// kopt perf, itself a CTest test with that TIMEOUT, gives its benchmark 0.9
// of it, so that the benchmark is stopped (and named) before CTest kills kopt.
[[nodiscard]] process_options harness_limits(const manifest& m, double share = 1.0);

// <build>/kernelopt/<k>/runs/<UTC time>: one directory per run.
[[nodiscard]] std::filesystem::path new_run_dir(const manifest& m);

}  // namespace kopt
