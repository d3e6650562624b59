// The loop's gate: whether a variant's record is accepted, with every
// reason. Computation only; render_gate_text formats a result.
//
// Rules, in order (docs/loop.md, "The gate"); the first variant with no
// parent (the root) needs only correctness, timing, source and order:
//   correctness  every declared shape × seed passed, read from the results
//   parent       declared before and recorded; its own decision is shown,
//                never a veto (judged on evidence against the best so far)
//   hypothesis   present, with an expected movement (hypothesis_states_movement)
//   settings     shapes, seeds, tolerance, timing settings as declared now
//                and as in the parent's record
//   timing       every timed shape has a measurement (all declared shapes
//                unless --quick)
//   bench_output the benchmark checked the outputs of what it timed
//   clock        the CUPTI clock saw no work the timed stream missed
//   speedup      geomean over shapes of best_so_far / this, measured in the
//                same benchmark file, > 1 + max(2%, 2 × noise)
//   per_shape    no shape slower than best-so-far by more than 3%
//   source       the record's source hash matches the sources now
//   order        every variant declared earlier has a record
#pragma once

#include <string>

#include "kopt/manifest.hpp"
#include "kopt/record.hpp"
#include "kopt/record_store.hpp"
#include "kopt/source_hash.hpp"

namespace kopt {

inline constexpr double k_min_improvement = 0.02;     // geomean must beat best by more
inline constexpr double k_noise_factor = 2.0;         // ... and by 2 × measured noise
inline constexpr double k_max_shape_slowdown = 0.03;  // no shape slower than this
inline constexpr double k_roofline_gap = 0.15;        // "target met" when every gap is below
inline constexpr double k_clock_reject = 0.10;        // CUPTI above events by more: work the events missed

// True when `hypothesis` contains a digit (a number: "~5x", "30%") or one of
// the direction words in docs/loop.md ("faster", "fewer", "halve", ...),
// matched case-insensitively as a word prefix ("reduces" matches "reduce").
[[nodiscard]] bool hypothesis_states_movement(const std::string& hypothesis);

// The current source hash of the candidate, or why it could not be computed.
struct current_source {
  std::optional<source_hash> m_hash;
  std::string m_error;
};
[[nodiscard]] current_source hash_current_sources(const manifest& m, const std::string& variant);

// True for the first declared variant when it declares no parent.
[[nodiscard]] bool is_root(const manifest& m, const std::string& variant);

// The rules decided by the record's own evidence, in the record's schema
// version: correctness, hypothesis, timing, bench_output and clock (schema
// >= 2), speedup and per_shape against `best` (the best so far when it was
// gated). The gate uses them, and every reader re-derives a stored
// decision with them (record_store.hpp).
[[nodiscard]] std::vector<gate_check> evidence_checks(const record& candidate, bool root,
                                                     const std::optional<std::string>& best);

// Evaluates `candidate` against the manifest and the records of the other
// variants (`records`; the candidate's own slot is never read).
[[nodiscard]] gate_result evaluate_gate(const manifest& m, const record& candidate, const record_set& records,
                                        const current_source& source);

// "gate softmax/v1: ACCEPT" followed by every check, notice and target.
[[nodiscard]] std::string render_gate_text(const std::string& kernel, const std::string& variant,
                                           const gate_result& gate);

}  // namespace kopt
