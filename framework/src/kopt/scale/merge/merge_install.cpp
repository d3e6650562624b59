#include "kopt/scale/merge/merge_install.hpp"

#include <stdexcept>

#include "core/file_lock.hpp"
#include "core/format.hpp"
#include "core/json_io.hpp"
#include "kopt/records/kernel_lock.hpp"
#include "kopt/report/report_files.hpp"
#include "kopt/report/sweep_report.hpp"
#include "kopt/sweep/selection.hpp"

namespace kopt::scale {
namespace {

std::string model_list(const merge_plan& plan) {
  std::vector<std::string> names;
  for (const merge_group& g : plan.m_groups) names.push_back("'" + g.m_device_model + "' (" + g.m_folder + ")");
  return join(names, ", ");
}

// One kernel's part of the install, decided before anything is written.
struct kernel_install {
  manifest m_manifest;                                                  // RECORDS: the target
  std::filesystem::path m_from;                                         // <group>/records/<k>
  std::vector<std::string> m_new_records;                               // variants to write
  std::vector<std::string> m_same_records;                              // already there, equal
  std::vector<const variant_decl*> m_selections;                        // families with a merged selection
};

}  // namespace

const merge_group& group_to_install(const merge_plan& plan, const std::string& model) {
  if (plan.m_groups.empty()) throw std::invalid_argument("--into-records: the shards hold no results to install");
  if (model.empty()) {
    if (plan.m_groups.size() == 1) return plan.m_groups.front();
    throw std::invalid_argument("--into-records: the results hold " + std::to_string(plan.m_groups.size()) +
                                " device models (" + model_list(plan) +
                                "): name the one to install with --model; a RECORDS folder is of one model");
  }
  for (const merge_group& g : plan.m_groups) {
    if (g.m_device_model == model || g.m_folder == model) return g;
  }
  throw std::invalid_argument("--model '" + shorten(model) + "': no results of that device model; the results hold " +
                              model_list(plan));
}

installed_records install_group_records(const suite& s, const merge_group& group,
                                        const std::filesystem::path& group_dir,
                                        const std::optional<std::filesystem::path>& records_dir,
                                        double lock_wait_s, std::ostream& err) {
  std::vector<kernel_install> plan;
  std::vector<file_lock> locks;
  for (const manifest& declared : s.m_manifests) {
    kernel_install k{declared, group_dir / "records" / declared.m_kernel, {}, {}, {}};
    if (!std::filesystem::is_directory(k.m_from)) continue;  // no unit of this kernel in the group
    if (records_dir) k.m_manifest.m_records_dir = *records_dir;
    const manifest& m = k.m_manifest;
    locks.push_back(lock_kernel(m, lock_wait_s, "merge", err));
    for (const variant_decl& v : m.m_variants) {
      const std::filesystem::path merged = k.m_from / (v.m_name + ".json");
      if (std::filesystem::exists(merged)) {
        const std::filesystem::path target = m.record_path(v.m_name);
        if (!std::filesystem::exists(target)) {
          k.m_new_records.push_back(v.m_name);
        } else if (same_json_value(read_json_file(target), read_json_file(merged))) {
          k.m_same_records.push_back(v.m_name);
        } else {
          throw std::runtime_error(target.string() + ": the record of " + m.m_kernel + "/" + v.m_name +
                                   " exists and differs from the merged one (" + merged.string() +
                                   "); records are never rewritten: nothing installed (declare a new variant, "
                                   "`kopt mask` this one, or install into another --records-dir)");
        }
      }
      if (v.m_family && std::filesystem::exists(k.m_from / (v.m_name + ".selection.json"))) {
        k.m_selections.push_back(&v);
      }
    }
    plan.push_back(std::move(k));
  }
  installed_records done;
  for (const kernel_install& k : plan) {
    const manifest& m = k.m_manifest;
    std::filesystem::create_directories(m.kernel_records_dir());
    for (const std::string& v : k.m_new_records) {
      write_json_new(m.record_path(v), read_json_file(k.m_from / (v + ".json")));
      done.m_written.push_back(m.record_path(v).string());
      done.m_new_records.emplace_back(m.m_kernel, v);
    }
    for (const std::string& v : k.m_same_records) done.m_unchanged.push_back(m.record_path(v).string());
    for (const variant_decl* family : k.m_selections) {
      // The merged selection, with the sweep report of the points' merged
      // results, written as select_family writes them.
      sweep_report report;
      report.m_selection = read_selection(k.m_from / (family->m_name + ".selection.json"));
      report.m_results = load_point_results(*family, group_dir / m.m_kernel / "sweep" / family->m_name);
      write_selection(m, *family, report);
      done.m_written.push_back(selection_file(m, *family).string());
    }
    write_report(m, m.kernel_records_dir() / "report", "");
    if (!k.m_selections.empty()) touch_selection_stamp(m);
  }
  return done;
}

}  // namespace kopt::scale
