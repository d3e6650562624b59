#include "kopt/scale/merge/merge_files.hpp"

#include <sstream>
#include <stdexcept>

#include "core/format.hpp"

namespace kopt::scale {
namespace {

json input_json(const shard_input& input) {
  const shard_document& d = input.m_doc;
  return {{"dir", input.m_dir.string()},     {"run_id", d.m_run_id},
          {"shard", d.m_index},              {"status", d.m_status},
          {"host", d.m_host},                {"device_model", d.m_device_model},
          {"device_uuid", d.m_device_uuid},  {"build_sha256", d.m_build_sha256},
          {"kernelopt_version", d.m_kernelopt_version},
          {"finished_utc", d.m_finished_utc}, {"units", d.m_units.size()},
          {"not_run", d.m_not_run}};
}

std::string ints(const std::vector<int>& values) {
  std::vector<std::string> text;
  for (const int v : values) text.push_back(std::to_string(v));
  return join(text, ",");
}

void copy_result(const std::filesystem::path& from_dir, const std::optional<std::string>& rel,
                 const std::filesystem::path& to_dir) {
  if (!rel) return;
  const std::filesystem::path to = to_dir / *rel;
  std::filesystem::create_directories(to.parent_path());
  std::filesystem::copy_file(from_dir / *rel, to, std::filesystem::copy_options::overwrite_existing);
}

}  // namespace

champion_map champions_of(const merge_plan& plan, const merge_group& group) {
  std::vector<const unit_outcome*> units;
  for (const merged_unit& u : group.m_units) units.push_back(&plan.outcome(u));
  return champions_of(group.m_device_model, units);
}

json to_json(const merge_plan& plan, const std::vector<std::filesystem::path>& partial,
             const std::vector<group_records>& records) {
  json inputs = json::array();
  for (const shard_input& input : plan.m_inputs) inputs.push_back(input_json(input));
  json groups = json::array();
  for (const merge_group& g : plan.m_groups) {
    json units = json::array();
    for (const merged_unit& u : g.m_units) {
      const unit_outcome& o = plan.outcome(u);
      json others = json::array();
      for (const std::size_t i : u.m_others) others.push_back(plan.m_inputs[i].m_doc.m_run_id);
      units.push_back({{"unit", u.m_unit},
                       {"from_run_id", plan.m_inputs[u.m_chosen].m_doc.m_run_id},
                       {"host", plan.m_inputs[u.m_chosen].m_doc.m_host},
                       {"device_uuid", o.m_device_uuid},
                       {"correctness", o.m_correctness},
                       {"bench", o.m_bench},
                       {"duplicates_left_out", others}});
    }
    json conflicts = json::array();
    for (const merge_conflict& c : g.m_conflicts) {
      json runs = json::array();
      for (const std::size_t i : c.m_inputs) runs.push_back(plan.m_inputs[i].m_doc.m_run_id);
      conflicts.push_back({{"unit", c.m_unit}, {"run_ids", runs}, {"what", c.m_what}});
    }
    json made = nullptr;
    if (const std::size_t i = groups.size(); i < records.size()) {
      made = {{"records", records[i].m_records},
              {"selections", records[i].m_selections},
              {"not_made", records[i].m_not_made}};
    }
    groups.push_back({{"device_model", g.m_device_model},
                      {"folder", g.m_folder},
                      {"complete", g.m_missing_units.empty()},
                      {"units", units},
                      {"missing_units", g.m_missing_units},
                      {"conflicts", conflicts},
                      {"records", made}});
  }
  json partial_dirs = json::array();
  for (const std::filesystem::path& p : partial) partial_dirs.push_back(p.string());
  return {{"schema_version", k_merge_schema_version},
          {"kind", k_merge_kind},
          {"complete", plan.complete()},
          {"conflicts", plan.has_conflicts()},
          {"suite", {{"sha256", plan.m_suite_sha256}, {"quick", plan.m_quick}, {"units", plan.m_suite_units}}},
          {"shard_count", plan.m_shard_count},
          {"missing_shards", plan.m_missing_shards},
          {"absent_shards", plan.m_absent_shards},
          {"missing_units", plan.m_missing_units},
          {"inputs", inputs},
          {"unfinished_folders", partial_dirs},
          {"groups", groups},
          {"notes", plan.m_notes}};
}

std::vector<std::string> read_merge_folders(const std::filesystem::path& merge_json) {
  const json doc = read_json_file(merge_json);
  const json_reader root(doc, merge_json.string());
  (void)check_kind(root, k_merge_kind, k_merge_schema_version);
  const json_reader groups = root.at("groups");
  std::vector<std::string> folders;
  for (std::size_t i = 0; i < groups.size(); ++i) folders.push_back(groups.at(i).at("folder").as_string());
  return folders;
}

std::string render_merge_markdown(const merge_plan& plan, const std::vector<std::filesystem::path>& partial,
                                  const std::vector<group_records>& records) {
  std::ostringstream md;
  md << "# Merge of " << plan.m_inputs.size() << " shard run(s), " << plan.m_shard_count << " shards\n\n";
  md << "| | |\n|---|---|\n";
  md << "| result | " << (plan.complete() ? "complete" : "INCOMPLETE") << (plan.has_conflicts() ? ", with conflicts" : "")
     << " |\n";
  md << "| units in the suite | " << plan.m_suite_units.size() << " |\n";
  md << "| missing shards | " << (plan.m_missing_shards.empty() ? "none" : ints(plan.m_missing_shards)) << " |\n";
  md << "| device models | " << plan.m_groups.size() << " |\n\n";
  for (const merge_group& g : plan.m_groups) {
    md << "## " << g.m_device_model << " (`" << g.m_folder << "/`)\n\n";
    md << g.m_units.size() << " units";
    if (!g.m_missing_units.empty()) md << "; missing: " << join(g.m_missing_units, ", ");
    md << "\n\n";
    for (const merge_conflict& c : g.m_conflicts) md << "- CONFLICT " << c.m_unit << ": " << c.m_what << "\n";
    const champion_map map = champions_of(plan, g);
    md << "| kernel | shape | champion | median |\n|---|---|---|---|\n";
    for (const kernel_champions& k : map.m_kernels) {
      for (const shape_champion& s : k.m_shapes) {
        md << "| " << k.m_kernel << " | " << s.m_shape << " | " << s.m_champion.value_or("none") << " | "
           << format_time_ns(s.m_median_ns) << " |\n";
      }
    }
    md << "\n";
    for (const kernel_champions& k : map.m_kernels) {
      for (const failed_unit& f : k.m_failed) {
        md << "- failed: " << k.m_kernel << "/" << f.m_impl << ": " << f.m_correctness
           << (f.m_bench.empty() ? "" : ", benchmark " + f.m_bench)
           << (f.m_failed_shapes.empty() ? "" : " (" + join(f.m_failed_shapes, "; ") + ")") << "\n";
      }
    }
    md << "\n";
    if (const std::size_t i = static_cast<std::size_t>(&g - plan.m_groups.data()); i < records.size()) {
      md << "Records (`" << g.m_folder << "/records/`):\n\n";
      for (const std::string& r : records[i].m_records) md << "- record " << r << "\n";
      for (const std::string& r : records[i].m_selections) md << "- selection " << r << "\n";
      for (const std::string& r : records[i].m_not_made) md << "- not made: " << r << "\n";
      md << "\n";
    }
  }
  if (!plan.m_missing_units.empty()) md << "Units of kernels no shard ran: " << join(plan.m_missing_units, ", ") << "\n\n";
  for (const std::filesystem::path& p : partial) md << "- unfinished run (not read): " << p.string() << "\n";
  for (const std::string& note : plan.m_notes) md << "- note: " << note << "\n";
  return md.str();
}

std::vector<group_records> write_merge(const merge_plan& plan, const std::vector<std::filesystem::path>& partial,
                                       const std::filesystem::path& out, const suite* s, double margin) {
  if (s != nullptr) check_same_suite(*s, plan);
  if (std::filesystem::exists(out) && !std::filesystem::is_empty(out) &&
      !std::filesystem::exists(out / "merge.json")) {
    throw std::runtime_error(out.string() + " exists and holds no merge.json: give an empty or new folder");
  }
  const std::filesystem::path tmp = out.string() + ".partial";
  std::filesystem::remove_all(tmp);
  std::filesystem::create_directories(tmp);
  for (const merge_group& g : plan.m_groups) {
    const std::filesystem::path dir = tmp / g.m_folder;
    for (const merged_unit& u : g.m_units) {
      const unit_outcome& o = plan.outcome(u);
      const std::filesystem::path& from = plan.m_inputs[u.m_chosen].m_dir;
      copy_result(from, o.m_correctness_file, dir);
      copy_result(from, o.m_bench_file, dir);
      copy_result(from, o.m_point_file, dir);
      if (o.m_point_file) {
        const std::string log = o.m_point_file->substr(0, o.m_point_file->size() - 5) + ".build.log";
        if (std::filesystem::exists(from / log)) copy_result(from, log, dir);
      }
      for (const char* kind : {".correct.log", ".bench.log", ".sweep.log"}) {
        const std::string rel = o.m_kernel + "/logs/" + o.m_impl + kind;
        if (std::filesystem::exists(from / rel)) copy_result(from, rel, dir);
      }
    }
    write_json_atomic(dir / "champions.json", to_json(champions_of(plan, g)));
  }
  std::vector<group_records> records;
  if (s != nullptr) {
    for (const merge_group& g : plan.m_groups) records.push_back(write_group_records(*s, plan, g, tmp / g.m_folder, margin));
  }
  write_json_atomic(tmp / "merge.json", to_json(plan, partial, records));
  write_file_atomic(tmp / "merge.md", render_merge_markdown(plan, partial, records));
  std::filesystem::remove_all(out);
  std::filesystem::rename(tmp, out);
  return records;
}

}  // namespace kopt::scale
