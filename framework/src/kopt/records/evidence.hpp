// The gate's rules that a record's own evidence decides (docs/loop.md, "The
// gate"): run, correctness, hypothesis, timing, bench_output, clock, speedup
// and per_shape. The gate (decide/gate.hpp) uses them for a new record, and
// every reader re-derives a stored decision with them (record_store.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kopt/inputs/manifest.hpp"
#include "kopt/records/record.hpp"

namespace kopt {

inline constexpr double k_min_improvement = 0.02;     // geomean must beat best by more
inline constexpr double k_noise_factor = 2.0;         // ... and by 2 × measured noise
inline constexpr double k_max_shape_slowdown = 0.03;  // no shape slower than this
// Above this noise the comparison decides nothing: on a machine ~5x
// oversubscribed (a second CI run beside the suite) a shape's round-by-round
// ratio had noise 114 %, and an identical copy came out 14.7x on it and was
// accepted past the 2 x noise bar. Honest runs on a shared CI machine stay
// below ~17 %.
inline constexpr double k_max_decision_noise = 0.25;
inline constexpr double k_clock_reject = 0.10;        // CUPTI above events by more: work the events missed

// True when `hypothesis` contains a digit (a number: "~5x", "30%") or one of
// the direction words in docs/loop.md ("faster", "fewer", "halve", ...),
// matched case-insensitively as a word prefix ("reduces" matches "reduce").
[[nodiscard]] bool hypothesis_states_movement(const std::string& hypothesis);

// True for the first declared variant when it declares no parent.
[[nodiscard]] bool is_root(const manifest& m, const std::string& variant);

// The rules decided by the record's own evidence, in the record's schema
// version: correctness, hypothesis, timing, bench_output and clock (schema
// >= 2), speedup and per_shape against `best` (the best so far when it was
// gated). The gate uses them, and every reader re-derives a stored
// decision with them (record_store.hpp).
[[nodiscard]] std::vector<gate_check> evidence_checks(const record& candidate, bool root,
                                                     const std::optional<std::string>& best);

// Why a shape's CUPTI clock disagrees with its event clock beyond
// k_clock_reject, or "" when it does not.
[[nodiscard]] std::string clock_problem(const shape_timing& s);

}  // namespace kopt
