#include "kopt/cli/json_output.hpp"

namespace kopt::cli {

json to_json(const gate_output& o) {
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_gate_output_kind},
          {"kernel", o.m_kernel},
          {"variant", o.m_variant},
          {"decision", o.m_decision},
          {"recorded_decision", o.m_recorded_decision},
          {"notes", o.m_notes},
          {"gate", to_json(o.m_gate)}};
}

json to_json(const perf_output& o) {
  json targets = json::array();
  for (const perf_target_output& t : o.m_targets) {
    targets.push_back({{"target", t.m_target}, {"status", t.m_status}, {"recorded", t.m_recorded}, {"lost", t.m_lost}});
  }
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_perf_output_kind},
          {"kernel", string_or_null(o.m_kernel)},
          {"best", string_or_null(o.m_best)},
          {"reason", string_or_null(o.m_reason)},
          {"compare", o.m_compare ? to_json(*o.m_compare) : json(nullptr)},
          {"targets", targets},
          {"outcome", o.m_outcome},
          {"exit_code", o.m_exit_code}};
}

json to_json(const optimize_output& o) {
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_optimize_output_kind},
          {"kernel", string_or_null(o.m_kernel)},
          {"variant", string_or_null(o.m_variant)},
          {"outcome", string_or_null(o.m_outcome)},
          {"decision", string_or_null(o.m_decision)},
          {"record", string_or_null(o.m_record)},
          {"skipped", o.m_skipped},
          {"failure", o.m_failure ? json{{"step", o.m_failure->m_step}, {"cause", o.m_failure->m_cause}} : json(nullptr)},
          {"gate", o.m_gate ? to_json(*o.m_gate) : json(nullptr)},
          {"exit_code", o.m_exit_code}};
}

}  // namespace kopt::cli
