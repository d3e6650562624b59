// Benchmark results: Google Benchmark JSON as `<k>_kopt_bench` writes it
// (a `kopt` object per benchmark, docs/formats.md), or plain Google
// Benchmark JSON whose names follow `<k>/<impl>/<shape>` (no noise then).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/manifest.hpp"

namespace kopt {

struct bench_row {
  std::string m_impl;
  std::string m_role;  // variant | reference | baseline | "" (plain Google Benchmark)
  std::string m_shape;
  std::optional<std::string> m_error;  // the benchmark failed or was skipped
  double m_median_ns = 0;
  std::optional<double> m_p10_ns;
  std::optional<double> m_p90_ns;
  std::optional<double> m_cv;
  std::optional<double> m_noise;  // relative standard error of the median
  std::int64_t m_samples = 0;
  std::optional<double> m_tflops;
  std::optional<double> m_gbps;
  std::optional<double> m_flops;
  std::optional<double> m_bytes;
  json m_pct_of_ceiling;  // object or null, as written by the bench
  json m_second_clock;
  json m_clock;
  std::vector<std::string> m_flags;
  std::string m_stop_reason;
};

struct bench_set {
  std::string m_file;    // as given, for messages
  std::string m_kernel;  // empty for plain Google Benchmark JSON
  std::string m_device;
  json m_gpu;  // kopt.gpu: which GPU (index, uuid, PCI bus, CTest allocation); null when not written
  std::optional<timing_settings> m_timing;
  std::optional<bool> m_quick;  // kopt.shape_set == "quick" (--kopt_quick)
  std::vector<bench_row> m_rows;

  [[nodiscard]] const bench_row* find(const std::string& impl, const std::string& shape) const;
  [[nodiscard]] bool has_impl(const std::string& impl) const;
};

// Throws format_error naming the file and the JSON path.
[[nodiscard]] bench_set read_bench(const std::filesystem::path& path);
[[nodiscard]] bench_set bench_from_json(const json& doc, const std::string& file);

}  // namespace kopt
