// Adds KernelOpt's fields to the JSON file Google Benchmark wrote, keeping
// every field of its own, so that tools/compare.py still reads it.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/json_io.hpp"

namespace kopt::bench {

// Per benchmark, by the name it was registered with ("softmax/v1/rows=8"),
// one kopt object per run in run order (several with --benchmark_repetitions).
using results_by_name = std::map<std::string, std::vector<json>>;

// Returns `doc` with `top` as "kopt" right after "context", and each entry
// of "benchmarks" whose run_type is "iteration" given the next kopt object
// of its registered name. Google Benchmark names a run
// "<registered>/iterations:1/manual_time": the registered name is the
// longest one that equals the run name or is followed there by '/'.
// Aggregates (_mean, _median, ...) get none.
[[nodiscard]] json merge_kopt(const json& doc, const json& top, const results_by_name& results);

// Reads the file, merges, and writes it back atomically.
void add_kopt_to_file(const std::filesystem::path& file, const json& top, const results_by_name& results);

}  // namespace kopt::bench
