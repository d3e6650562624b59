// Builds a record from the inputs of one run: correctness results, one
// benchmark file, env, ceilings, profile and static findings. The gate is
// run by the caller (cmd_record), which then embeds its decision.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kopt/inputs/bench.hpp"
#include "formats/ceilings.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/records/record.hpp"
#include "kopt/records/record_store.hpp"

namespace kopt {

struct record_inputs {
  std::string m_variant;
  std::vector<std::filesystem::path> m_correctness;
  std::filesystem::path m_bench;
  std::optional<std::filesystem::path> m_env;
  std::optional<std::filesystem::path> m_ceilings;
  std::optional<std::filesystem::path> m_profile;
  std::optional<std::filesystem::path> m_static;
  // A step that did not finish (crash, abort, timeout): the record is made
  // from whatever files exist (none may), and the gate rejects it.
  std::optional<run_failure> m_failure;
  // When the results were made, for created_utc and the gate's
  // evaluated_utc; unset: now. `kopt merge` gives the shard run's finish
  // time, so that merging the same shards twice makes the same records.
  std::optional<std::string> m_results_utc;
};

// The timing of `variant` in `bench`, with speedups against the other
// implementations timed in the same file: `parent`, `best`, the reference
// and every baseline. Shapes in manifest order. Throws format_error naming
// the bench file when it holds no benchmark for `variant`.
[[nodiscard]] timing_summary build_timing(const manifest& m, const bench_set& bench,
                                          const std::string& variant,
                                          const std::optional<std::string>& parent,
                                          const std::optional<std::string>& best,
                                          const ceilings_file* ceilings);

// Everything but the gate. Throws format_error / std::runtime_error naming
// the file and field of a bad input.
[[nodiscard]] record assemble_record(const manifest& m, const record_set& records,
                                     const record_inputs& inputs);

}  // namespace kopt
