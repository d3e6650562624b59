// A generated benchmark's command line (bench/options.hpp): KernelOpt's
// flags read with CLI11 and taken out, Google Benchmark's passed on in
// order, --help and --version answered, nothing unknown of ours ignored.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/options.hpp"
#include "core/version.hpp"

namespace kopt::bench {
namespace {

// argv as main gets it, kept alive for take_options to reorder.
struct argv_of {
  explicit argv_of(std::vector<std::string> args) : m_args(std::move(args)) {
    for (std::string& a : m_args) m_pointers.push_back(a.data());
    m_pointers.push_back(nullptr);
    m_argc = static_cast<int>(m_args.size());
  }
  [[nodiscard]] std::vector<std::string> rest() const { return {m_pointers.begin(), m_pointers.begin() + m_argc}; }
  std::vector<std::string> m_args;
  std::vector<char*> m_pointers;
  int m_argc = 0;
};

command_line take(argv_of& a) { return take_options(a.m_argc, a.m_pointers.data()); }

TEST(bench_options, kopt_flags_are_taken_and_google_benchmark_flags_pass_through) {
  argv_of a({"k_kopt_bench", "--benchmark_filter=^k/(v1|v0)/", "--kopt_quick", "--benchmark_out=/tmp/x y.json",
             "--kopt_timeout=570", "--benchmark_list_tests", "--kopt_ceilings", "c.json", "--kopt_device=3",
             "--benchmark_out_format=json", "--kopt_no_cupti=false"});
  const command_line line = take(a);
  EXPECT_EQ(line.m_request, request::run);
  EXPECT_TRUE(line.m_options.m_quick);
  EXPECT_FALSE(line.m_options.m_profile);
  EXPECT_FALSE(line.m_options.m_no_cupti);
  EXPECT_EQ(line.m_options.m_timeout_s, 570);
  EXPECT_EQ(line.m_options.m_ceilings, "c.json");
  EXPECT_EQ(line.m_options.m_device, 3);
  EXPECT_EQ(a.rest(), (std::vector<std::string>{"k_kopt_bench", "--benchmark_filter=^k/(v1|v0)/",
                                                "--benchmark_out=/tmp/x y.json", "--benchmark_list_tests",
                                                "--benchmark_out_format=json"}));
  EXPECT_EQ(a.m_pointers[a.m_argc], nullptr);
  const benchmark_flags flags = read_benchmark_flags(a.m_argc, a.m_pointers.data());
  EXPECT_EQ(flags.m_filter, "^k/(v1|v0)/");
  EXPECT_EQ(flags.m_out, "/tmp/x y.json");
  EXPECT_TRUE(flags.m_list_tests);
}

TEST(bench_options, help_and_version_are_requests) {
  argv_of help({"k_kopt_bench", "--benchmark_filter=x", "--help"});
  const command_line h = take(help);
  EXPECT_EQ(h.m_request, request::help);
  for (const char* flag : {"--kopt_quick", "--kopt_ceilings", "--kopt_profile", "--kopt_no_cupti", "--kopt_device",
                           "--kopt_timeout", "--version", "Google Benchmark's flags"}) {
    EXPECT_NE(h.m_text.find(flag), std::string::npos) << flag << " not in\n" << h.m_text;
  }
  argv_of version({"/build/k_kopt_bench", "--version"});
  const command_line v = take(version);
  EXPECT_EQ(v.m_request, request::version);
  EXPECT_EQ(v.m_text, std::string("k_kopt_bench (KernelOpt) ") + kernelopt_version() + "\n");
}

TEST(bench_options, unknown_or_bad_kopt_flags_are_refused_by_name) {
  const auto refused = [](std::vector<std::string> args) -> std::string {
    args.insert(args.begin(), "k_kopt_bench");
    argv_of a(std::move(args));
    try {
      (void)take(a);
    } catch (const options_error& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_EQ(refused({"--kopt_quik"}), "--kopt_quik: unknown KernelOpt flag (see --help)");
  EXPECT_EQ(refused({"--kopt_device=gpu0"}), "--kopt_device=gpu0: expected a device ordinal (0, 1, ...)");
  EXPECT_EQ(refused({"--kopt_timeout=-1"}), "--kopt_timeout=-1: expected a positive number of seconds");
  EXPECT_NE(refused({"--kopt_ceilings"}).find("--kopt_ceilings"), std::string::npos);
  EXPECT_EQ(refused({"--kopt_ceilings=", "--benchmark_list_tests"}), "--kopt_ceilings needs a non-empty value");
  EXPECT_NE(refused({"--kopt_quick=maybe"}).find("maybe"), std::string::npos);
  EXPECT_EQ(refused({"--benchmark_filter=x"}), "accepted");  // Google Benchmark checks its own
}

}  // namespace
}  // namespace kopt::bench
