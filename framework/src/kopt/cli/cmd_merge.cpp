// kopt merge: shard folders from any number of hosts -> one results folder
// per device model, champions, and what is missing (docs/scale-out.md).
#include <algorithm>
#include <ostream>

#include "core/format.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/scale/merge/merge_files.hpp"
#include "kopt/scale/merge/merge_install.hpp"
#include "kopt/sweep/selection.hpp"

namespace kopt::cli {
namespace {

inline constexpr int k_exit_incomplete = 3;
inline constexpr int k_exit_unselected = 4;

std::string ints(const std::vector<int>& values) {
  std::vector<std::string> text;
  for (const int v : values) text.push_back(std::to_string(v));
  return join(text, ",");
}

// Differences between this merge's champions and those of another merge
// folder (a single-host run of the same suite), model folder by folder.
std::vector<std::string> differences_from(const scale::merge_plan& plan, const std::filesystem::path& other) {
  std::vector<std::string> lines;
  const std::vector<std::string> other_folders = scale::read_merge_folders(other / "merge.json");
  for (const scale::merge_group& g : plan.m_groups) {
    if (std::find(other_folders.begin(), other_folders.end(), g.m_folder) == other_folders.end()) {
      lines.push_back(g.m_device_model + ": not in " + other.string());
      continue;
    }
    const std::filesystem::path file = other / g.m_folder / "champions.json";
    const scale::champion_map theirs = scale::champions_from_json(read_json_file(file), file.string());
    for (const std::string& d : scale::champion_differences(scale::champions_of(plan, g), theirs)) {
      lines.push_back(g.m_device_model + ": " + d);
    }
  }
  for (const std::string& folder : other_folders) {
    if (std::none_of(plan.m_groups.begin(), plan.m_groups.end(),
                     [&](const scale::merge_group& g) { return g.m_folder == folder; })) {
      lines.push_back(folder + ": only in " + other.string());
    }
  }
  return lines;
}

}  // namespace

int cmd_merge(const arguments& args, std::ostream& out, std::ostream& err) {
  std::vector<std::filesystem::path> roots;
  for (const std::string& p : args.positionals()) roots.emplace_back(p);
  if (roots.empty()) throw usage_error("give the shard folders (or folders of them) to merge");
  const scale::scan_result scanned = scale::scan_shards(roots);
  const scale::merge_plan plan = scale::plan_merge(scanned.m_shards);
  const std::filesystem::path dir = std::filesystem::absolute(args.value("--out")).lexically_normal();
  // With the suite's manifests: each model's records, selections and reports too.
  std::optional<scale::suite> suite;
  if (args.has("--manifest") || args.has("--build-dir")) {
    try {
      suite = scale::load_suite(scale::manifests_of(args.values("--manifest"), args.optional_value("--build-dir")));
      scale::check_same_suite(*suite, plan);
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
  }
  // --into-records: which model, decided before anything is written.
  const bool install = args.has("--into-records");
  for (const char* option : {"--model", "--records-dir"}) {
    if (args.has(option) && !install) throw usage_error(std::string(option) + " goes with --into-records");
  }
  const scale::merge_group* to_install = nullptr;
  if (install) {
    if (!suite) throw usage_error("--into-records needs the suite's manifests: give --manifest or --build-dir");
    try {
      to_install = &scale::group_to_install(plan, args.optional_value("--model").value_or(""));
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
  }
  std::optional<std::filesystem::path> records_dir;
  if (const auto given = args.optional_value("--records-dir")) {
    records_dir = std::filesystem::absolute(*given).lexically_normal();
  }
  double margin = k_default_select_margin;
  if (const auto text = args.optional_value("--margin")) margin = fraction_option("--margin", *text);
  const std::vector<scale::group_records> records =
      scale::write_merge(plan, scanned.m_partial, dir, suite ? &*suite : nullptr, margin);
  out << scale::render_merge_markdown(plan, scanned.m_partial, records);
  if (!suite) out << "no records, selections or reports: give --manifest or --build-dir for them\n";
  out << "merged into " << dir.string() << "\n";
  int status = k_exit_ok;
  if (plan.has_conflicts()) {
    err << "merge: conflicting results (merged by the rule, see merge.md)\n";
    status = k_exit_fail;
  }
  if (const auto other = args.optional_value("--same-as")) {
    const std::vector<std::string> lines = differences_from(plan, *other);
    for (const std::string& line : lines) out << "DIFFERENT: " << line << "\n";
    out << (lines.empty() ? "SAME champions and failures as " : "NOT the same as ") << *other << "\n";
    if (!lines.empty()) status = k_exit_fail;
  }
  if (!plan.complete()) {
    err << "merge: INCOMPLETE: missing shards " << ints(plan.m_missing_shards) << " of " << plan.m_shard_count
        << " (run them again: kopt slurm --resubmit, or kopt shard run --shard I/" << plan.m_shard_count << ")\n";
    if (install) err << "merge: nothing installed into the records: the results are incomplete\n";
    return k_exit_incomplete;
  }
  if (to_install != nullptr) {
    const scale::installed_records done = scale::install_group_records(
        *suite, *to_install, dir / to_install->m_folder, records_dir, lock_wait_option(args), err);
    for (const std::string& file : done.m_written) out << "installed " << file << "\n";
    // As kopt record: each new record into the experience store.
    for (const auto& [kernel, variant] : done.m_new_records) {
      for (manifest m : suite->m_manifests) {
        if (m.m_kernel != kernel) continue;
        if (records_dir) m.m_records_dir = *records_dir;
        record_experience(m, variant, out);
      }
    }
    for (const std::string& file : done.m_unchanged) out << "unchanged " << file << " (equal to the merged record)\n";
    out << "installed the records of " << to_install->m_device_model
        << "; the next build configures again and builds the dispatch of each selection\n";
  }
  std::vector<std::string> unselected;
  for (std::size_t i = 0; i < records.size(); ++i) {
    for (const std::string& family : records[i].m_unselected) {
      unselected.push_back(family + " (" + plan.m_groups[i].m_device_model + ")");
    }
  }
  if (!unselected.empty()) {
    err << "merge: NO SELECTION for " << join(unselected, ", ")
        << ": its dispatch cannot be built (why: merge.md, \"not made\")\n";
    return k_exit_unselected;
  }
  return status;
}

}  // namespace kopt::cli
