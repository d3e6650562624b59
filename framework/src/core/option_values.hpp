// The one rule, shared by every KernelOpt command line (kopt, the
// generated correctness tests and benchmarks), that runs before CLI11
// parses: an option's value is never empty. CLI11 reads `--name=` (nothing
// after the '=') as "the value is the next argument", so `--kopt_results=
// --gtest_list_tests` would take the next option as the file name.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kopt {

// The error for the first argument of `args` that starts with `prefix`
// ("--kopt_" where the other options belong to Google Test or Google
// Benchmark, "--" for kopt) and ends in its only '=':
// "--kopt_results needs a non-empty value". nullopt when there is none.
[[nodiscard]] std::optional<std::string> empty_value_error(const std::vector<std::string>& args,
                                                           const std::string& prefix);

}  // namespace kopt
