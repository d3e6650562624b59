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
#include "formats/ceilings.hpp"
#include "formats/timing_stats.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt {

struct bench_row {
  std::string m_impl;
  std::string m_role;  // variant | reference | baseline | "" (plain Google Benchmark)
  std::string m_shape;
  std::optional<std::string> m_error;  // the benchmark failed or was skipped
  timing_stats m_stats;  // plain Google Benchmark: real_time as the median, repetitions as samples
  std::optional<double> m_tflops;
  std::optional<double> m_gbps;
  std::optional<double> m_flops;
  std::optional<double> m_bytes;
  std::optional<ceiling_fractions> m_pct_of_ceiling;  // as written by the bench; nullopt: no ceilings file
  json m_second_clock;
  json m_clock;
  std::vector<std::string> m_flags;
  std::string m_stop_reason;
  // kopt.output_check.status: pass | fail | unavailable; "" when the file has
  // none (plain Google Benchmark, or a bench older than the check).
  std::string m_output_check;
  std::string m_output_detail;
  // kopt.rounds: the median of each interleaved round, and the
  // implementations sampled in the same rounds (bench/interleave.hpp).
  std::vector<double> m_round_medians;
  std::vector<std::string> m_window;
};

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
