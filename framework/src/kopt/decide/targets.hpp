// TARGET expressions (the kernel's stop conditions), evaluated per shape on
// one variant's timing. A target is met when it holds on every timed shape;
// `unknown` (and so not met) when a name cannot be resolved, with why.
//
// Names, per shape (docs/loop.md, "TARGET names"):
//   time_ns, time_us, time_ms      median time
//   tflops, gbps                   achieved rates (from FLOPS / BYTES)
//   speedup_vs_reference, speedup_vs_parent, speedup_vs_<baseline>
//                                  other's median / this median, same bench file
//   pct_of_ceiling.<name>          fraction of a ceiling (0..1)
//   <DIM>                          the shape's dimensions (M, N, K, ...)
//   peak.<name>                    a ceiling of any source (measured or spec)
//   ceiling.<name>                 a measured ceiling only
// peak.* and ceiling.* are in TFLOP/s (FLOP/s ceilings) or GB/s (B/s
// ceilings), the units of `tflops` and `gbps`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/json_io.hpp"
#include "core/shape.hpp"
#include "kopt/records/record.hpp"

namespace kopt {

// The per-shape names above (peak.* / ceiling.* excluded).
[[nodiscard]] std::map<std::string, double> shape_values(const shape_timing& timing);

// `ceilings`: the record's (nullopt: peak.* and ceiling.* are unknown).
[[nodiscard]] std::vector<target_result> evaluate_targets(const std::vector<std::string>& targets,
                                                          const timing_summary& timing,
                                                          const std::optional<ceilings_file>& ceilings);

[[nodiscard]] bool all_met(const std::vector<target_result>& results);

// The roofline gap per shape (1 - achieved / attainable), from the record's
// profile (its single implementation's `roofline`). nullopt when the
// profile has no roofline data.
[[nodiscard]] std::optional<std::vector<std::pair<std::string, double>>> roofline_gaps(
    const embedded_document<profile::profile_document>& profile);

}  // namespace kopt
