// The --json documents of the kopt commands (docs/formats.md, "JSON output
// of the commands"): one struct each, filled by the command as it runs and
// written by its to_json, never a literal in the command. Documents that
// describe a library type are typed beside it (compare_document,
// stop_status, recommend_result, ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/compare/compare_document.hpp"
#include "kopt/experience/entry.hpp"
#include "kopt/records/perf_baseline.hpp"
#include "kopt/records/record.hpp"
#include "kopt/run/gpu_schedule.hpp"
#include "kopt/scale/shard/shard_plan.hpp"

namespace kopt::cli {

inline constexpr const char* k_gate_output_kind = "kernelopt.gate";
inline constexpr const char* k_perf_output_kind = "kernelopt.perf";
inline constexpr const char* k_optimize_output_kind = "kernelopt.optimize";
inline constexpr const char* k_record_output_kind = "kernelopt.record_written";
inline constexpr const char* k_mask_output_kind = "kernelopt.mask";
inline constexpr const char* k_baseline_output_kind = "kernelopt.baseline";
inline constexpr const char* k_ablate_output_kind = "kernelopt.ablate";
inline constexpr const char* k_overlap_output_kind = "kernelopt.overlap";
inline constexpr const char* k_experience_list_kind = "kernelopt.experience_list";
inline constexpr const char* k_experience_add_kind = "kernelopt.experience_add";
inline constexpr const char* k_experience_stats_kind = "kernelopt.experience_stats";
inline constexpr const char* k_shard_list_kind = "kernelopt.shard_list";
inline constexpr int k_command_output_schema_version = 1;

// kopt gate --json: the decision now, the one stored, every rule.
struct gate_output {
  std::string m_kernel;
  std::string m_variant;
  std::string m_decision;           // ACCEPT | REJECT, now
  std::string m_recorded_decision;  // as the record says
  std::vector<std::string> m_notes;  // records that do not count
  gate_result m_gate;
};
[[nodiscard]] json to_json(const gate_output& output);

// One TARGET of kopt perf: now, and as the record says.
struct perf_target_output {
  std::string m_target;
  std::string m_status;    // met | unmet | not evaluated ...
  std::string m_recorded;  // the record's status
  bool m_lost = false;     // met in the record, unmet now
};

// kopt perf --json; a field the run did not reach stays null (empty).
struct perf_output {
  std::optional<std::string> m_kernel;
  std::optional<std::string> m_best;
  std::optional<std::string> m_reason;  // why the gate did not run
  std::optional<compare_document> m_compare;  // the record (or baseline) vs this run
  std::vector<perf_target_output> m_targets;
  std::string m_outcome;  // ok | fail | skipped
  int m_exit_code = 0;
};
[[nodiscard]] json to_json(const perf_output& output);

// kopt optimize --json; a field the run did not reach stays null (empty).
struct optimize_output {
  std::optional<std::string> m_kernel;
  std::optional<std::string> m_variant;   // nullopt: nothing left to optimize
  std::optional<std::string> m_outcome;   // ACCEPT | REJECT | skipped | nothing_left
  std::optional<std::string> m_decision;  // the gate's
  std::optional<std::string> m_record;    // the record written (path)
  std::vector<std::string> m_skipped;     // what was skipped, and why
  std::optional<run_failure> m_failure;   // a step that did not finish
  std::optional<gate_result> m_gate;
  int m_exit_code = 0;
};
[[nodiscard]] json to_json(const optimize_output& output);

// kopt record --json: what was written, the decision; or why nothing was.
struct record_output {
  std::string m_kernel;
  std::string m_variant;
  std::string m_outcome = "skipped";       // ACCEPT | REJECT | skipped
  std::optional<std::string> m_reason;     // why skipped
  std::optional<std::string> m_record;     // the record written (path)
  std::optional<std::string> m_decision;
  std::optional<gate_result> m_gate;
};
[[nodiscard]] json to_json(const record_output& output);

// kopt mask --json.
struct mask_output {
  std::string m_kernel;
  std::string m_variant;
  std::string m_record;  // path
  mask_info m_masked;
};
[[nodiscard]] json to_json(const mask_output& output);

// kopt baseline --json; a field the run did not reach stays null (empty).
struct baseline_output {
  std::optional<std::string> m_kernel;
  std::optional<std::string> m_best;
  std::optional<std::string> m_reason;   // why skipped
  std::optional<std::string> m_file;     // the baseline written
  bool m_replaced = false;               // a baseline was there before
  std::optional<perf_baseline> m_baseline;
  std::string m_outcome;  // ok | fail | skipped
  int m_exit_code = 0;
};
[[nodiscard]] json to_json(const baseline_output& output);

// kopt ablate --json; a field the run did not reach stays null (empty).
struct ablate_output {
  std::optional<std::string> m_variant;
  std::optional<std::string> m_record;  // written into (path)
  std::optional<ablation_result> m_ablation;
  int m_exit_code = 0;
};
[[nodiscard]] json to_json(const ablate_output& output);

// One pair of benchmark runs that held one GPU at the same time.
struct overlap_pair_output {
  std::string m_gpu;
  std::string m_first;   // bench JSON file
  std::string m_second;
  std::int64_t m_overlap_ns = 0;  // written in seconds
};

// kopt overlap --json: every run, every overlapping pair.
struct overlap_output {
  std::vector<gpu_interval> m_runs;
  std::vector<overlap_pair_output> m_overlaps;
};
[[nodiscard]] json to_json(const overlap_output& output);

// kopt experience list|search --json.
struct experience_list_output {
  std::string m_action;  // list | search
  std::string m_store;   // folder
  std::vector<experience_entry> m_entries;
};
[[nodiscard]] json to_json(const experience_list_output& output);

// One entry kopt experience add found in the records.
struct experience_added {
  std::string m_id;
  std::string m_variant;
  bool m_added = false;  // false: already in the store
};

// kopt experience add|merge --json (merge lists no entries).
struct experience_add_output {
  std::string m_store;
  int m_added = 0;
  int m_present = 0;
  std::vector<experience_added> m_entries;
};
[[nodiscard]] json to_json(const experience_add_output& output);

// How the entries that name a method came out.
struct method_tally {
  int m_success = 0;
  int m_neutral = 0;
  int m_failure = 0;
  int m_other = 0;
};

// kopt experience stats --json.
struct experience_stats_output {
  std::string m_store;
  int m_entries = 0;                             // that matched the filters
  std::map<std::string, method_tally> m_methods;  // by method, written in name order
};
[[nodiscard]] json to_json(const experience_stats_output& output);

// kopt shard list --format json: the units of one shard.
struct shard_list_output {
  scale::shard_spec m_shard;
  std::string m_suite_sha256;
  std::size_t m_suite_units = 0;  // units in the whole suite
  std::vector<std::string> m_units;  // this shard's
  std::string m_ctest_regex;         // selects their CTest tests
};
[[nodiscard]] json to_json(const shard_list_output& output);

}  // namespace kopt::cli
