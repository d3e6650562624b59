// `kopt baseline`'s arithmetic: N benchmark files of one variant, each from
// its own process, into a kernelopt.perf_baseline (records/perf_baseline.hpp).
#pragma once

#include <string>
#include <vector>

#include "kopt/inputs/bench.hpp"
#include "kopt/records/perf_baseline.hpp"
#include "kopt/records/record.hpp"

namespace kopt {

inline constexpr std::int64_t k_baseline_min_runs = 3;
inline constexpr std::int64_t k_baseline_default_runs = 8;

// Per shape of the record the variant's median in every run: median of
// them, spread = sample standard deviation of their logarithms (the
// relative run-to-run spread), the runs' median within-run noise; the same
// for each run's geomean over the shapes. Throws std::runtime_error when
// the runs disagree on the device, a shape is missing or failed in a run,
// or there are fewer than k_baseline_min_runs.
[[nodiscard]] perf_baseline measure_baseline(const record& best, const std::vector<bench_set>& runs,
                                             const std::string& created_utc);

// Sample standard deviation of ln(values); 0 for fewer than two.
[[nodiscard]] double log_spread(const std::vector<double>& values);

}  // namespace kopt
