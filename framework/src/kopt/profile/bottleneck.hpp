// Each profiled kernel's bottleneck, classified with Nsight Compute's own
// SOL thresholds (rule SOLBottleneck), its occupancy and warp-stall
// findings, and what one benchmark's kernels add up to. docs/profiling.md
// gives the rules and their sources.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/profile/ncu_csv.hpp"

namespace kopt::profile {

// ---- classification -----------------------------------------------------------
// Nsight Compute's rule SOLBottleneck (section SpeedOfLight; the rule file
// SOLBottleneck.py in the sections/ folder of an Nsight Compute install):
// balanced_threshold = 10, latency_bound_threshold = 60,
// no_bound_threshold = 80, waves_threshold = 1 (percent of peak; waves).
struct sol_thresholds {
  static constexpr double k_latency_below_pct = 60;
  static constexpr double k_high_throughput_pct = 80;
  static constexpr double k_balanced_within_pct = 10;
  static constexpr double k_small_grid_waves_below = 1;
};
// The thresholds a profile was classified with, as its document records
// them: where they come from, then each by name (latency_below_pct, ...).
// A profile written by an older KernelOpt names other ones; they are read
// as written.
struct profile_thresholds {
  std::optional<std::string> m_source;
  std::vector<std::pair<std::string, double>> m_values;
};
[[nodiscard]] profile_thresholds thresholds_in_use();  // sol_thresholds, with their source
[[nodiscard]] json to_json(const profile_thresholds& thresholds);
// An object: `source` a string (optional), every other member a number.
// Throws format_error naming the file and the field.
[[nodiscard]] profile_thresholds thresholds_from_json(const json_reader& node);

struct classification {
  // "latency-bound", "small-grid", "compute-bound", "memory-bound", "balanced",
  // "high-throughput (compute)", "high-throughput (memory)" or "unknown".
  std::string m_bottleneck;
  std::string m_ncu_rule;  // the name ncu's rule gives the case: "Latency Issue", "Small Grid", ...
  std::string m_why;       // the numbers that decided it
};
[[nodiscard]] classification classify(const kernel_profile& k);

// Occupancy, stall, tensor-pipe and launch findings, one sentence each.
[[nodiscard]] std::vector<std::string> findings(const kernel_profile& k);

// What one benchmark's kernels add up to: duration and DRAM bytes summed,
// the bottleneck of the longest kernel.
struct benchmark_summary {
  std::optional<double> m_duration_ns;
  std::optional<double> m_dram_bytes;
  classification m_class;
  std::string m_dominant_kernel;
  double m_dominant_share = 0;  // of the summed duration
  std::vector<std::string> m_findings;
};
[[nodiscard]] benchmark_summary summarize(const std::vector<kernel_profile>& kernels);

// The bottleneck over several benchmarks (shapes) of one implementation:
// the one named most often, ties to the earliest; "mixed: a, b" is never
// produced, the per-shape values stay in "benchmarks".
[[nodiscard]] std::string overall_bottleneck(const std::vector<std::string>& per_shape);

}  // namespace kopt::profile
