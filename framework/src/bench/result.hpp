// The per-benchmark `kopt` row of the benchmark result (formats/
// bench_result.hpp), made from a measurement; no I/O here.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/engine.hpp"
#include "core/json_io.hpp"
#include "formats/bench_result.hpp"
#include "formats/ceilings.hpp"
#include "formats/timing_stats.hpp"
#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt::bench {

[[nodiscard]] const char* role_name(impl_role role);

// Work model at one shape and the rates it gives at a median time.
struct rates {
  double m_flops = 0;                 // 0: FLOPS not declared
  double m_bytes = 0;                 // 0: BYTES not declared
  std::optional<double> m_tflops;
  std::optional<double> m_gbps;
  std::optional<ceiling_fractions> m_fractions;  // empty optional: no ceilings file
};
[[nodiscard]] rates compute_rates(double flops, double bytes, double median_ns, const ceilings_file* limits);

// The row's timing statistics (a value that is not finite: unknown).
[[nodiscard]] timing_stats timing_stats_of(const sample_stats& stats);

// `flags` of a measurement: the engine's, plus noise_above_bound when the
// median's noise stayed above max_noise.
[[nodiscard]] std::vector<std::string> result_flags(const measurement& m, double max_noise);

// A timed row: the statistics, rates, clocks and flags (rounds and output
// check are the session's, added by the caller).
[[nodiscard]] bench_row timed_row(const kernel_spec& spec, const impl_spec& impl, const shape_spec& shape,
                                  const measurement& m, const rates& r, double max_noise);
// --kopt_profile: what was launched, no timing.
[[nodiscard]] bench_row profiled_row(const kernel_spec& spec, const impl_spec& impl, const shape_spec& shape);
// A benchmark that failed (device error, exception): the reason.
[[nodiscard]] bench_row failed_row(const kernel_spec& spec, const impl_spec& impl, const shape_spec& shape,
                                   const std::string& error);

// Per-benchmark harness and second-clock costs, summarized for the
// top-level kopt.overhead and for the one stderr line.
struct overhead_entry {
  std::string m_benchmark;
  double m_harness_ns_per_sample = 0;
  std::optional<double> m_second_clock_cost_ns;
};
[[nodiscard]] overhead_summary summarize_overhead(const std::vector<overhead_entry>& entries);
[[nodiscard]] std::string overhead_text(const std::vector<overhead_entry>& entries);

}  // namespace kopt::bench
