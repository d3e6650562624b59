// How one backend times an implementation. The shared driver (driver.hpp)
// registers the benchmarks, prepares inputs and writes results; an engine
// only measures: steady clock for the host backend, device events plus a
// CUPTI second clock for CUDA (framework/src/cuda/bench_main.cpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/sampler.hpp"
#include "core/json_io.hpp"

namespace kopt::bench {

// Enqueues one invocation of the implementation (asynchronous for CUDA).
using launch_fn = std::function<void()>;

// What an engine found for one benchmark. The JSON parts are already in the
// shape docs/formats.md gives them.
struct measurement {
  sampling_result m_primary;            // the headline clock; median = real_time
  json m_second_clock;                  // per-benchmark kopt.second_clock
  json m_clock;                         // per-benchmark kopt.clock (null: not applicable)
  std::vector<std::string> m_flags;     // besides noise_above_bound (added by the driver)
  std::optional<double> m_second_clock_cost_ns;  // CUPTI on minus off, per launch
  double m_harness_ns_per_sample = 0;   // wall time per sample minus its device time
};

class timing_engine {
 public:
  virtual ~timing_engine() = default;
  // Fields merged into the top-level kopt.timing (e.g. l2_flush_bytes).
  [[nodiscard]] virtual json timing_fields() const = 0;
  // Warm-up, then samples until `settings` says stop. Throws on a device error.
  [[nodiscard]] virtual measurement measure(const launch_fn& launch, const sampler_settings& settings) = 0;
  // No timing: `warmup` launches, then exactly one launch inside the
  // profiler range (cudaProfilerStart/Stop for CUDA).
  virtual void profile(const launch_fn& launch, std::size_t warmup) = 0;
};

}  // namespace kopt::bench
