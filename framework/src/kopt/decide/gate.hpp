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
//                and as in the parent's record; the inputs and reference
//                (measured_inputs.hpp) as declared now and as in the
//                parent's and the best's records, where those keep them
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

#include "kopt/inputs/manifest.hpp"
#include "kopt/records/evidence.hpp"
#include "kopt/records/record.hpp"
#include "kopt/records/record_store.hpp"
#include "kopt/records/source_hash.hpp"

namespace kopt {

inline constexpr double k_roofline_gap = 0.15;        // "target met" when every gap is below

// Evaluates `candidate` against the manifest and the records of the other
// variants (`records`; the candidate's own slot is never read).
[[nodiscard]] gate_result evaluate_gate(const manifest& m, const record& candidate, const record_set& records,
                                        const current_source& source);

// "gate softmax/v1: ACCEPT" followed by every check, notice and target.
[[nodiscard]] std::string render_gate_text(const std::string& kernel, const std::string& variant,
                                           const gate_result& gate);

}  // namespace kopt
