// One shape's measurement of every selected implementation, checked:
//  1. two input sets of distinct content (own buffers, guard regions) and
//     the reference's outputs for each;
//  2. a checked launch of every implementation on each set: outputs
//     poisoned first, then compared with the reference (the kernel's
//     TOLERANCE), guards and `in` tensors checked;
//  3. interleaved sampling (interleave.hpp), every launch rotating between
//     the two sets, so a result cached by pointer or by content is stale
//     half of the time;
//  4. checked launches again after the timed calls (work that stops after
//     the first calls), and on fresh content loaded under the same
//     pointers (results cached by pointer);
//  5. a few samples on fresh content each: an implementation that runs
//     much faster on inputs it has seen than on inputs it has not is
//     caching results (content_cached). The first round's fresh samples
//     are themselves checked, their outputs holding the previous content's
//     results as every timed call finds them, not poison: an implementation
//     that works only when its outputs are poisoned (when it is being
//     checked), or only on some calls, fails.
// An implementation that fails any check, or throws anything, gets an error
// for its row; the others are measured without it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/engine.hpp"
#include "core/json_io.hpp"
#include "formats/bench_result.hpp"
#include "harness/backend.hpp"
#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt::bench {

inline constexpr std::size_t k_input_sets = 2;
inline constexpr std::size_t k_fresh_samples = 3;
// When even the fastest sample on fresh content is slower than both
// k_fresh_median_factor × the median and k_fresh_p90_factor × the 90th
// percentile of the samples on the repeated input sets, the implementation
// was not doing the work on repeated inputs. Wide on purpose: a shared CI
// machine's samples spread by tens of percent, while caching results makes
// a kernel several times faster.
inline constexpr double k_fresh_median_factor = 1.5;
inline constexpr double k_fresh_p90_factor = 1.25;
// A verdict of cached results, or timing as on new inputs, stands only when
// a second round of fresh inputs (new contents) confirms it: one burst of
// load on a shared machine can slow all three samples of a round, a cache
// slows every round.
inline constexpr std::size_t k_fresh_rounds = 2;

struct impl_outcome {
  std::optional<std::string> m_error;  // the row's error: failed check, exception, device error
  measurement m_measurement;           // when no error
  std::optional<interleaved_rounds> m_rounds;            // kopt.rounds (none on error)
  std::optional<output_check_summary> m_output_check;  // kopt.output_check
  std::optional<shape_phases> m_phases;                // kopt.phases_s: the shape's, shared by its rows
};

// Whether samples on fresh inputs show cached results: the reason, or "".
// `seen_ns` are samples on an input set already seen, each taken just
// before a fresh sample: a machine slowed by other work slows them too and
// widens the bound, while a cache keeps them fast.
[[nodiscard]] std::string fresh_content_verdict(const std::vector<double>& fresh_ns, const sample_stats& repeated,
                                                const std::vector<double>& seen_ns = {});

// How much slower an implementation the check above did not convict runs
// on inputs it has not seen: min(fresh_ns) / the repeated minimum, when even
// the fastest fresh sample is slower than k_fresh_median_factor × both the
// repeated median and the fastest of `seen_ns`; nullopt otherwise. The check
// convicts on the fastest fresh sample against bounds that include the
// repeated samples' p90, which the implementation controls with a minority
// of its calls (an audit: a cache that recomputed on every 5th call put p90
// at the honest time and was accepted at 31x by its median); the speedup is
// taken from medians. Such an implementation is timed as on new inputs: its
// samples are scaled by this factor, the fresh samples' noise is added to
// its own, its row is flagged `timed_on_fresh_inputs` and carries no rounds
// (kopt compares it by its median). An honest kernel whose speed depends on
// having seen the data (a host branch predictor that learned the two
// repeated sets) gets the time it takes on new data, which is what its
// users see.
// Minima throughout: a busy machine only ever slows a sample, so load can
// neither raise the trigger's fresh side nor lower its seen side, nor grow
// the factor. With medians, two of three fresh samples that met a burst of
// load scaled an honest kernel 2.24x on a loaded 2-core machine, and an
// identical copy was accepted against it; and seen samples that met load
// widened the bound for a cache. The session asks for a second round of
// fresh inputs and scales only when every sample so far says so, after each
// round (k_fresh_rounds).
[[nodiscard]] std::optional<double> fresh_content_scale(const std::vector<double>& fresh_ns,
                                                        const sample_stats& repeated,
                                                        const std::vector<double>& seen_ns);

// Measures `impls` (all of one kernel) on `shape`, in the order given.
// Never throws for a fault of one implementation; a device error that
// leaves the device unusable fails every implementation not yet done.
[[nodiscard]] std::vector<impl_outcome> measure_shape(const kernel_spec& spec, const shape_spec& shape,
                                                      const std::vector<const impl_spec*>& impls,
                                                      backend& device, backend& host, timing_engine& engine);

}  // namespace kopt::bench
