// Plain Google Benchmark JSON (--benchmark_out_format=json) from any
// benchmark binary, not only KernelOpt's: names such as `BM_copy/1024`,
// `BM_copy/1024/repeats:9/real_time`, or KernelOpt's `<k>/<impl>/<shape>`.
// Repetitions are kept one value each; aggregates (median, stddev) are used
// when the repetitions themselves were not written
// (--benchmark_report_aggregates_only). Times are `real_time` (the manual
// time under UseManualTime), in ns.
#pragma once

#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/inputs/timing_series.hpp"

namespace kopt {

// "BM_copy/1024/repeats:9/manual_time" -> {"BM_copy", "1024"};
// "softmax/v1/rows=8,cols=8/iterations:1" -> {"v1", "rows=8,cols=8"}
// (a third component with '=' marks KernelOpt's <kernel>/<impl>/<shape>);
// "BM_empty" -> {"BM_empty", ""}. Suffixes Google Benchmark appends for
// its run options (iterations:, repeats:, min_time:, min_warmup_time:,
// manual_time, real_time, process_time) are dropped; threads:N is kept.
struct gbench_name {
  std::string m_impl;
  std::string m_shape;
};
[[nodiscard]] gbench_name split_gbench_name(const std::string& name);

// One series per benchmark, in file order. Throws format_error naming the
// file and the JSON path.
[[nodiscard]] std::vector<timing_series> read_gbench_series(const json& doc, const std::string& file);

}  // namespace kopt
