// Command-line flags of a generated benchmark: KernelOpt's own `--kopt_*`,
// `--help` and `--version` (read with CLI11 and taken out of argv before
// Google Benchmark sees it), and the few Google Benchmark flags KernelOpt
// acts on (read, left in place).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

namespace kopt::bench {

struct options {
  bool m_quick = false;        // --kopt_quick: QUICK_SHAPES instead of SHAPES
  bool m_profile = false;      // --kopt_profile: one launch per benchmark inside cudaProfilerStart/Stop
  bool m_no_cupti = false;     // --kopt_no_cupti: skip the CUPTI second clock
  std::string m_ceilings;      // --kopt_ceilings=FILE: kernelopt.ceilings for % of ceiling
  std::optional<int> m_device; // --kopt_device=N: CUDA ordinal (default: CTest's allocation, else 0)
  double m_timeout_s = 0;      // --kopt_timeout=SECONDS: the watchdog (0: none)
};

class options_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the command line asks for besides a run.
enum class request { run, help, version };

struct command_line {
  options m_options;
  request m_request = request::run;
  std::string m_text;  // help: KernelOpt's flags (CLI11's help); version: the version line
};

// Reads KernelOpt's flags with CLI11 and removes them from argv (argc
// updated, argv[argc] = nullptr); every other argument (Google Benchmark's
// --benchmark_* flags) stays, in order, for benchmark::Initialize.
// `--help` / `-h` and `--version` are requests, answered by the caller.
// Throws options_error naming the argument on an unknown --kopt_ flag or a
// bad value: nothing is silently ignored.
[[nodiscard]] command_line take_options(int& argc, char** argv);

// Google Benchmark's flags as it will parse them (argv first, then its
// BENCHMARK_* environment variables), so that listing never touches the
// GPU and the JSON file can be found afterwards.
struct benchmark_flags {
  bool m_list_tests = false;
  std::string m_out;                // --benchmark_out
  std::string m_out_format = "json";
  std::string m_filter;             // --benchmark_filter: which benchmarks run (measured together per shape)
};
[[nodiscard]] benchmark_flags read_benchmark_flags(int argc, char** argv);

}  // namespace kopt::bench
