// The band of the committed-record check (`kopt perf`, the `<k>.perf` test):
// how far this run's median may sit from the reference before it counts as
// a change. docs/ci-gating.md, "The band", derives the numbers.
//
//   band = max(threshold,                                  the declared floor (KernelOpt_PERF_THRESHOLD)
//              k_perf_spread_sigmas x spread x sqrt(1 + 1/N),  run-to-run, measured (kopt baseline, N runs)
//              k_board_allowance when this board did not time the reference)
//
// spread is the standard deviation of ln(median) over the baseline's N
// processes; sqrt(1 + 1/N) widens it for one new run against the median of
// N. Board-to-board spread cannot be measured on one board: the allowance
// is assumed from the 2026-11-21 two-H200 runs (every shape within 1 %, one
// short shape +2.1 .. +3.7 %) and applies only on another board: one not
// among the baseline's, or, against a record, one other than the record's
// (or any, when the record does not name its board).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kopt/compare/verdict.hpp"
#include "kopt/records/perf_baseline.hpp"
#include "kopt/records/record.hpp"

namespace kopt {

inline constexpr double k_perf_spread_sigmas = 3.0;
inline constexpr double k_board_allowance = 0.045;

struct perf_reference {
  std::string m_source;              // "baseline FILE (N runs)" or "record vN (one run)"
  std::vector<timing_point> m_points;  // the reference, each with its band
  std::optional<double> m_geomean_band;
  bool m_other_board = false;
  std::vector<std::string> m_notes;  // how the band was made, printed by perf
};

// From a current baseline (same source hash as the record) when there is
// one, else from the record's own timing (no measured spread: the floor,
// plus the allowance on another board). With a baseline, the record's
// shapes the baseline lacks (a --quick baseline) come from the record when
// record_same_model. this_gpu: this run's GPU UUID ("" unknown).
[[nodiscard]] perf_reference perf_reference_for(const record& best, const std::optional<perf_baseline>& baseline,
                                                const std::string& baseline_file, const std::string& this_gpu,
                                                double threshold, bool record_same_model = true);

[[nodiscard]] double spread_band(double spread, std::int64_t runs);  // k x spread x sqrt(1 + 1/N)

}  // namespace kopt
