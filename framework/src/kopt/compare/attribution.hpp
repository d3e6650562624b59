// The attribution of a variant's switchable METHODS (`kopt ablate`,
// docs/ablation.md), from the timing points of the benchmark processes that
// timed the variant and its ablated builds together. No statistics of its
// own: each method is kopt compare's comparison (compute_verdicts) of the
// build without it (NEW) against the variant (BASE), with the same
// threshold, noise rule and U test:
//   - geomean verdict SLOWER (the variant is slower without the method by
//     more than max(threshold, 3 x noise)): effective;
//   - SAME (within the threshold) or FASTER (the method costs time): ineffective;
//   - UNSURE (beyond the threshold, within the noise): unsure;
//   - a build that did not compile, was incorrect, crashed or whose
//     benchmark failed: implementation-failed, not timed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kopt/compare/verdict.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/records/ablation.hpp"

namespace kopt {

// One method per outcome (records/ablation.hpp), in order. `points`: merged over the repetitions
// (load_timing_points of the folder of benchmark files). A method whose
// build has no timing point on any shape the variant has is
// implementation-failed (benchmark).
[[nodiscard]] std::vector<ablation_method> compute_attribution(const std::string& variant,
                                                               const std::vector<timing_point>& points,
                                                               const std::vector<ablation_outcome>& outcomes,
                                                               double threshold);

}  // namespace kopt
