// How one backend times an implementation. The shared driver (driver.hpp)
// registers the benchmarks, prepares inputs, decides the order of samples
// (interleave.hpp) and writes results; an engine only takes samples: steady
// clock for the host backend, device events plus a CUPTI second clock for
// CUDA (framework/src/cuda/cuda_bench_main.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/sampler.hpp"
#include "core/json_io.hpp"
#include "formats/bench_result.hpp"
#include "formats/clocks.hpp"

namespace kopt::bench {

// Enqueues one invocation of the implementation (asynchronous for CUDA).
using launch_fn = std::function<void()>;

// What an engine found for one benchmark. The JSON parts are already in the
// shape docs/formats.md gives them.
struct measurement {
  sampling_result m_primary;            // the headline clock; median = real_time
  std::optional<second_clock> m_second_clock;  // per-benchmark kopt.second_clock
  std::optional<clock_window> m_clock;         // per-benchmark kopt.clock (nullopt: not applicable)
  std::vector<std::string> m_flags;     // besides noise_above_bound (added by the driver)
  std::optional<double> m_second_clock_cost_ns;  // CUPTI on minus off, per launch
  double m_harness_ns_per_sample = 0;   // wall time per sample minus its device time
};

// The device state over one measurement window (several implementations
// sampled in turn): the clock record and whether the clocks were held down.
struct window_state {
  std::optional<clock_window> m_clock;  // nullopt when not applicable (host)
  bool m_throttled = false;
  bool m_launch_not_hidden = false;
};

class timing_engine {
 public:
  virtual ~timing_engine() = default;
  // The engine's fields of the top-level kopt.timing, after the settings
  // (clock, its resolution, cache flush sizes).
  [[nodiscard]] virtual engine_timing timing_fields() const = 0;
  // Bytes written to flush L2 before each sample (the setting kopt.timing's
  // l2_flush_bytes); nullopt where there is no L2 flush (the host).
  [[nodiscard]] virtual std::optional<std::int64_t> l2_flush_bytes() const { return std::nullopt; }
  // Resolution of the primary clock in ns (floors the noise estimate).
  [[nodiscard]] virtual double resolution_ns() const = 0;

  // A window opens before the first sample of a set of implementations and
  // closes after the last; poll() runs between samples (clock polling).
  virtual void begin_window() {}
  virtual void poll() {}
  [[nodiscard]] virtual window_state end_window() { return {}; }

  // The first call of an implementation, outside timing and synchronized
  // (lazy module loading, page faults). Throws on a device error.
  virtual void warm(const launch_fn& launch) = 0;
  // One cold sample in ns: caches flushed, then the launch timed.
  [[nodiscard]] virtual double sample_ns(const launch_fn& launch) = 0;
  // After the primary samples of one implementation: the second clock
  // (CUPTI for CUDA) and its flags, into `m`.
  virtual void second_clock(const launch_fn& launch, const sampler_settings& settings, measurement& m) = 0;

  // No timing: `warmup` launches, then exactly one launch inside the
  // profiler range (cudaProfilerStart/Stop for CUDA).
  virtual void profile(const launch_fn& launch, std::size_t warmup) = 0;
};

}  // namespace kopt::bench
