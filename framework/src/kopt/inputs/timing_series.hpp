// One benchmark's timing as a file from another tool gives it: plain Google
// Benchmark JSON (inputs/gbench.hpp) or NVBench JSON (inputs/nvbench.hpp).
// `kopt compare` turns these into its rows; nothing else reads them.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kopt {

struct timing_series {
  std::string m_impl;   // Google Benchmark: the family ("BM_copy"); NVBench: the benchmark's name
  std::string m_shape;  // Google Benchmark: the arguments ("1024/8"); NVBench: the state ("T=F32 Elements=2^20")
  std::optional<std::string> m_error;  // failed or skipped, with the tool's reason
  // One value per repetition (Google Benchmark's iteration entries); empty
  // when the file holds only aggregates or a single summary (NVBench).
  std::vector<double> m_repetitions_ns;
  // The file's own center when it gives one (the median aggregate, NVBench's
  // median or mean); otherwise the median of m_repetitions_ns.
  std::optional<double> m_center_ns;
  // Relative standard error of m_center_ns where the file says enough to
  // compute it (stddev aggregate and its repetitions; NVBench's relative
  // stdev and sample size); nullopt otherwise.
  std::optional<double> m_noise;
};

}  // namespace kopt
