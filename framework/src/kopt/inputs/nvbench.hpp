// NVBench JSON (`--json FILE`): benchmarks[].states[].summaries[], each
// summary a tag ("nv/cold/time/gpu/mean") with its values in
// data[] = {name, type, value} and every number written as a string
// ("inf" where NVBench has no noise estimate). A state is one row: impl =
// the benchmark's name, shape = the state's name ("Device=0 T=F32
// Elements=2^20"; base and new match when they ran on the same ordinal, as
// in a base-vs-PR compare on one runner), time =
// nv/cold/time/gpu/median when present (newer NVBench), else
// nv/cold/time/gpu/mean, in seconds; noise = nv/cold/time/gpu/stdev/relative
// / sqrt(nv/cold/sample_size) (x 1.2533 for a median). A skipped state
// (is_skipped) is a row with its skip_reason as error.
#pragma once

#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/inputs/timing_series.hpp"

namespace kopt {

// benchmarks[0] has "states": NVBench, not Google Benchmark.
[[nodiscard]] bool is_nvbench_json(const json& doc);

// Throws format_error naming the file and the JSON path.
[[nodiscard]] std::vector<timing_series> read_nvbench_series(const json& doc, const std::string& file);

}  // namespace kopt
