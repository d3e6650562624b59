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

json to_json(const record_output& o) {
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_record_output_kind},
          {"kernel", o.m_kernel},
          {"variant", o.m_variant},
          {"outcome", o.m_outcome},
          {"reason", string_or_null(o.m_reason)},
          {"record", string_or_null(o.m_record)},
          {"decision", string_or_null(o.m_decision)},
          {"gate", o.m_gate ? to_json(*o.m_gate) : json(nullptr)}};
}

json to_json(const mask_output& o) {
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_mask_output_kind},
          {"kernel", o.m_kernel},
          {"variant", o.m_variant},
          {"record", o.m_record},
          {"masked", to_json(o.m_masked)}};
}

json to_json(const baseline_output& o) {
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_baseline_output_kind},
          {"kernel", string_or_null(o.m_kernel)},
          {"best", string_or_null(o.m_best)},
          {"reason", string_or_null(o.m_reason)},
          {"file", string_or_null(o.m_file)},
          {"replaced", o.m_replaced},
          {"baseline", o.m_baseline ? to_json(*o.m_baseline) : json(nullptr)},
          {"outcome", o.m_outcome},
          {"exit_code", o.m_exit_code}};
}

json to_json(const ablate_output& o) {
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_ablate_output_kind},
          {"variant", string_or_null(o.m_variant)},
          {"record", string_or_null(o.m_record)},
          {"ablation", o.m_ablation ? to_json(*o.m_ablation) : json(nullptr)},
          {"exit_code", o.m_exit_code}};
}

json to_json(const overlap_output& o) {
  json runs = json::array();
  for (const gpu_interval& i : o.m_runs) {
    runs.push_back({{"file", i.m_file}, {"gpu", i.m_gpu}, {"ctest_allocation", i.m_ctest_allocation},
                    {"started_unix_ns", i.m_start_ns}, {"finished_unix_ns", i.m_end_ns}});
  }
  json pairs = json::array();
  for (const overlap_pair_output& p : o.m_overlaps) {
    pairs.push_back({{"gpu", p.m_gpu}, {"first", p.m_first}, {"second", p.m_second},
                     {"overlap_s", static_cast<double>(p.m_overlap_ns) / 1e9}});
  }
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_overlap_output_kind},
          {"runs", runs},
          {"overlaps", pairs}};
}

json to_json(const experience_list_output& o) {
  json entries = json::array();
  for (const experience_entry& e : o.m_entries) entries.push_back(to_json(e));
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_experience_list_kind},
          {"action", o.m_action},
          {"store", o.m_store},
          {"entries", entries}};
}

json to_json(const experience_add_output& o) {
  json entries = json::array();
  for (const experience_added& e : o.m_entries) {
    entries.push_back({{"id", e.m_id}, {"variant", e.m_variant}, {"added", e.m_added}});
  }
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_experience_add_kind},
          {"store", o.m_store},
          {"added", o.m_added},
          {"present", o.m_present},
          {"entries", entries}};
}

json to_json(const experience_stats_output& o) {
  json methods = json::array();
  for (const auto& [name, t] : o.m_methods) {
    methods.push_back({{"method", name}, {"success", t.m_success}, {"neutral", t.m_neutral},
                       {"failure", t.m_failure}, {"other", t.m_other}});
  }
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_experience_stats_kind},
          {"store", o.m_store},
          {"entries", o.m_entries},
          {"methods", methods}};
}

json to_json(const shard_list_output& o) {
  return {{"schema_version", k_command_output_schema_version},
          {"kind", k_shard_list_kind},
          {"shard", {{"index", o.m_shard.m_index}, {"count", o.m_shard.m_count}, {"assignment", scale::k_assignment},
                     {"index_source", o.m_shard.m_index_source}}},
          {"suite_sha256", o.m_suite_sha256},
          {"suite_units", o.m_suite_units},
          {"units", o.m_units},
          {"ctest_regex", o.m_ctest_regex}};
}

}  // namespace kopt::cli
