// The two clock objects of a timed benchmark row (`kopt.second_clock`,
// `kopt.clock`), which a record keeps per shape: one type each for the
// writers (the engines: bench/host_engine, cuda/cuda_bench_main with
// cuda/cupti_clock and cuda/nvml) and every reader (kopt record, the gate's
// clock rule in kopt/records/evidence.hpp, the report's environment).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"

namespace kopt {

// Limit on a read document: kernels per second clock.
inline constexpr std::size_t k_max_clock_kernels = 100000;

// One kernel (or copy) the second clock saw per sample, on any stream.
struct clock_kernel {
  std::string m_name;  // demangled
  std::array<std::int64_t, 3> m_grid{};
  std::array<std::int64_t, 3> m_block{};
  std::int64_t m_registers = 0;     // per thread
  std::int64_t m_static_smem = 0;   // bytes per block
  std::int64_t m_dynamic_smem = 0;
  std::int64_t m_stream = 0;        // CUPTI's stream id
  double m_median_ns = 0;           // one launch
  double m_launches_per_sample = 0;
};

// kopt.second_clock: CUPTI's activity records over the same launches, or
// why there are none. Three forms: the host's {available: false, reason}
// (no m_source), CUPTI unavailable, CUPTI measured (m_available).
struct second_clock {
  std::optional<std::string> m_source;  // "cupti"; nullopt: the host backend's short form
  bool m_available = false;
  std::optional<std::string> m_reason;  // why not available; nullopt (null) when available
  // CUPTI (m_source):
  std::optional<double> m_median_ns;
  std::string m_agreement = "unavailable";  // ok | disagree | unavailable
  std::optional<double> m_difference;       // relative, CUPTI vs events; null when not finite or unavailable
  // CUPTI measured (m_available) only:
  std::optional<double> m_bound;  // the difference allowed
  std::int64_t m_samples = 0;
  std::optional<double> m_noise;
  std::int64_t m_dropped_records = 0;
  std::vector<clock_kernel> m_kernels;

  [[nodiscard]] static second_clock unavailable(std::string source_or_empty, std::string reason);
};

// kopt.clock: the SM clock (NVML) over the measurement window. A value NVML
// could not give is nullopt, written "unknown", and m_reason says why.
struct clock_window {
  std::optional<std::int64_t> m_sm_mhz_min;  // busy readings only
  std::optional<std::int64_t> m_sm_mhz_max;
  std::optional<std::int64_t> m_sm_mhz_limit;
  std::optional<bool> m_throttled;
  std::vector<std::string> m_reasons;  // NVML clock event reasons seen
  std::int64_t m_readings = 0;
  std::optional<std::string> m_reason;  // why a value is unknown; nullopt (null) when none is
};

[[nodiscard]] json to_json(const second_clock& clock);
[[nodiscard]] json to_json(const clock_window& clock);
// `node` is the object. Throws format_error naming the file and the JSON
// pointer of the field.
[[nodiscard]] second_clock second_clock_from_json(const json_reader& node);
[[nodiscard]] clock_window clock_window_from_json(const json_reader& node);

// Tables (docs/formats.md): second_clock, one of its kernels, clock.
[[nodiscard]] std::vector<format_table> clock_tables();

}  // namespace kopt
