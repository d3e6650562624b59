// The --json documents of kopt gate, perf and optimize (docs/formats.md,
// "JSON output of the commands"): one struct each, filled by the command as
// it runs and written by its to_json, never a literal in the command. The
// other commands' documents are typed beside their code (compare_document,
// stop_status, recommend_result, ...).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/compare/compare_document.hpp"
#include "kopt/records/record.hpp"

namespace kopt::cli {

inline constexpr const char* k_gate_output_kind = "kernelopt.gate";
inline constexpr const char* k_perf_output_kind = "kernelopt.perf";
inline constexpr const char* k_optimize_output_kind = "kernelopt.optimize";
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

}  // namespace kopt::cli
