#include "kopt/scale/merge/merge_records.hpp"

#include <stdexcept>

#include "core/format.hpp"
#include "core/json_io.hpp"
#include "kopt/decide/gated_record.hpp"
#include "kopt/report/report_files.hpp"
#include "kopt/report/sweep_report.hpp"

namespace kopt::scale {
namespace {

const merged_unit* find_unit(const merge_group& g, const std::string& name) {
  for (const merged_unit& u : g.m_units) {
    if (u.m_unit == name) return &u;
  }
  return nullptr;
}

// The record inputs of one merged unit: its files in the shard folder it
// came from, that shard's env.json, and its finish time as the record's
// time (a merge of the same shards, run again, makes the same records).
record_inputs inputs_of(const merge_plan& plan, const merged_unit& mu, const unit_outcome& o) {
  const shard_input& shard = plan.m_inputs[mu.m_chosen];
  const std::filesystem::path& from = shard.m_dir;
  record_inputs in;
  in.m_variant = o.m_impl;
  in.m_results_utc = shard.m_doc.m_finished_utc;
  if (o.m_correctness_file) in.m_correctness = {from / *o.m_correctness_file};
  if (o.m_bench_file) in.m_bench = from / *o.m_bench_file;
  if (std::filesystem::exists(from / "env.json")) in.m_env = from / "env.json";
  if (o.m_correctness == "error") {
    in.m_failure = run_failure{"correctness test", o.m_correctness_detail};
  } else if (!o.m_bench_file) {
    // A shard times only correct implementations; a benchmark that ended
    // without a file is a failure of its own.
    in.m_failure = run_failure{"benchmark", o.m_bench == "error" ? o.m_bench_detail
                                                                 : "not run (" + o.m_bench_detail + ")"};
  }
  return in;
}

}  // namespace

void check_same_suite(const suite& s, const merge_plan& plan) {
  if (s.m_sha256 != plan.m_suite_sha256) {
    throw std::runtime_error("the manifests given are not the suite the shards ran (suite hash " +
                             s.m_sha256.substr(0, 12) + ", the shards' " + plan.m_suite_sha256.substr(0, 12) +
                             "): give the manifests of the build the shards ran");
  }
}

group_records write_group_records(const suite& s, const merge_plan& plan, const merge_group& group,
                                  const std::filesystem::path& group_dir, double margin) {
  group_records made;
  for (const manifest& declared : s.m_manifests) {
    bool any = false;
    for (const merged_unit& u : group.m_units) any = any || u.m_unit.rfind(declared.m_kernel + "/", 0) == 0;
    if (!any) continue;
    // The group's own RECORDS: its gate sees only this model's records.
    manifest m = declared;
    m.m_records_dir = group_dir / "records";
    std::filesystem::create_directories(m.kernel_records_dir());
    for (const variant_decl& v : m.m_variants) {
      const std::string name = m.m_kernel + "/" + v.m_name;
      if (v.m_family) {
        try {
          const sweep_report report = select_family(m, v, group_dir / m.m_kernel / "sweep" / v.m_name, margin);
          std::vector<std::string> champions;
          for (const shape_selection& shape : report.m_selection.m_shapes) {
            champions.push_back(shape.m_shape + " -> " + shape.m_champion);
          }
          made.m_selections.push_back(name + ": " + join(champions, ", "));
        } catch (const std::exception& e) {
          made.m_not_made.push_back(name + " selection: " + shorten(e.what(), 400));
          made.m_unselected.push_back(name);
        }
      }
      const merged_unit* mu = find_unit(group, name);
      if (mu == nullptr) continue;  // missing: named by the plan
      const unit_outcome& o = plan.outcome(*mu);
      if (o.m_correctness == "skipped") {
        made.m_not_made.push_back(name + " record: correctness skipped (" + o.m_correctness_detail + ")");
        continue;
      }
      const record r = build_gated_record(m, inputs_of(plan, *mu, o));
      write_json_new(m.record_path(v.m_name), to_json(r));
      made.m_records.push_back(name + ": " + r.m_gate.m_decision);
    }
    write_report(m, m.kernel_records_dir() / "report", "");
  }
  return made;
}

}  // namespace kopt::scale
