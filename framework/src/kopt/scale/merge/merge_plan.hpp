// `kopt merge`'s decisions, kept apart from its files (docs/scale-out.md,
// "Merge"): which shard result of each unit counts, per device model.
//
// - Every input must belong to one suite (suite hash, --quick, shard count):
//   otherwise nothing is merged.
// - Units are grouped by the device model they ran on; a group is merged on
//   its own (its own folder, champions and gate inputs), so results of two
//   GPU models never meet in one decision.
// - A unit with several results on one model (a shard run twice) keeps one,
//   by this rule: a result that ran (pass, fail, incomplete) over skipped
//   over error; then the newest finished_utc; then the smallest run id. The
//   inputs are sorted first, so the outcome does not depend on the order in
//   which folders are given or arrived.
// - Duplicates that ran and disagree (correctness per shape, benchmark
//   failed or not, source hash) are a conflict: merged by the rule, flagged.
// - A unit of a kernel present in a group, without a result there, is
//   missing in that group; a unit of a kernel absent from every group is
//   missing. The shards of missing units are named.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kopt/scale/shard/shard_document.hpp"

namespace kopt::scale {

struct shard_input {
  std::filesystem::path m_dir;
  shard_document m_doc;
};

struct scan_result {
  std::vector<shard_input> m_shards;
  std::vector<std::filesystem::path> m_partial;  // folders of runs that did not finish
};

// Each root is a shard folder (holding shard.json) or a folder of them (one
// level down). ".partial" folders are listed, not read. Throws format_error
// on a malformed shard.json (naming file and field), std::runtime_error on
// a root that is not a folder.
[[nodiscard]] scan_result scan_shards(const std::vector<std::filesystem::path>& roots);

struct merged_unit {
  std::string m_unit;
  std::size_t m_chosen = 0;           // index into merge_plan::m_inputs
  std::vector<std::size_t> m_others;  // the duplicates left out
};

struct merge_conflict {
  std::string m_unit;
  std::vector<std::size_t> m_inputs;
  std::string m_what;
};

struct merge_group {
  std::string m_device_model;
  std::string m_folder;              // a file-name form of the model, unique among the groups
  std::vector<merged_unit> m_units;  // sorted by unit
  std::vector<std::string> m_missing_units;
  std::vector<merge_conflict> m_conflicts;
};

struct merge_plan {
  std::string m_suite_sha256;
  int m_shard_count = 0;
  bool m_quick = false;
  std::vector<std::string> m_suite_units;
  std::vector<shard_input> m_inputs;  // sorted by run id
  std::vector<merge_group> m_groups;  // sorted by device model
  std::vector<std::string> m_missing_units;  // of kernels no group has
  std::vector<int> m_missing_shards;         // the shards of every missing unit, sorted
  std::vector<int> m_absent_shards;          // shards with no finished folder (missing or not)
  std::vector<std::string> m_notes;

  [[nodiscard]] bool complete() const { return m_missing_shards.empty(); }
  [[nodiscard]] bool has_conflicts() const;
  [[nodiscard]] const unit_outcome& outcome(const merged_unit& unit) const;
};

// "host-cpu-amd-epyc-7b13": lower case, runs of other characters as one '-'.
[[nodiscard]] std::string model_folder(const std::string& model);

// Throws std::runtime_error when there is no input, or the inputs belong to
// different suites (naming the two folders and what differs).
[[nodiscard]] merge_plan plan_merge(std::vector<shard_input> inputs);

}  // namespace kopt::scale
