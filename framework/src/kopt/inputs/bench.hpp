// Benchmark results as kopt uses them: the rows of a benchmark result
// (formats/bench_result.hpp, as `<k>_kopt_bench` writes it), or of plain
// Google Benchmark JSON whose names follow `<k>/<impl>/<shape>` (no noise
// then: real_time is the median, repetitions the samples).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/bench_result.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt {

// Two implementations sampled in the same interleaved rounds, compared
// round by round: speedup = exp(median over rounds of ln(other / self)),
// noise = the relative standard error of that median (the spread between
// rounds: drift, order and run-to-run effects, not only within a round).
struct paired_speedup {
  double m_speedup = 1;
  double m_noise = 0;
  std::size_t m_rounds = 0;
};
// nullopt unless both rows have the same number of rounds (>= 2) from one window.
[[nodiscard]] std::optional<paired_speedup> pair_rounds(const bench_row& self, const bench_row& other);

// A row's m_error also holds Google Benchmark's own error_message.
struct bench_set {
  std::string m_file;    // as given, for messages
  std::string m_kernel;  // empty for plain Google Benchmark JSON
  std::string m_device;
  std::optional<gpu_info> m_gpu;  // kopt.gpu (formats/gpu.hpp); nullopt when null or not written
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
