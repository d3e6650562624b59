#include "kopt/scale/merge/merge_plan.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "kopt/scale/shard/shard_plan.hpp"

namespace kopt::scale {
namespace {

// 0: ran (pass, fail, incomplete); 1: skipped; 2: error.
int rank_of(const unit_outcome& u) {
  if (u.m_correctness == "skipped") return 1;
  if (u.m_correctness == "error") return 2;
  return 0;
}

std::string verdicts_of(const unit_outcome& u) {
  std::string text = u.m_correctness;
  for (const shape_outcome& s : u.m_shapes) text += " " + s.m_shape + ":" + s.m_correctness;
  return text;
}

std::string kernel_of(const std::string& unit) { return unit.substr(0, unit.find('/')); }

}  // namespace

bool merge_plan::has_conflicts() const {
  return std::any_of(m_groups.begin(), m_groups.end(), [](const merge_group& g) { return !g.m_conflicts.empty(); });
}

const unit_outcome& merge_plan::outcome(const merged_unit& unit) const {
  for (const unit_outcome& u : m_inputs[unit.m_chosen].m_doc.m_units) {
    if (u.m_unit == unit.m_unit) return u;
  }
  throw std::logic_error("merge: no outcome of " + unit.m_unit);
}

std::string model_folder(const std::string& model) {
  std::string folder;
  for (const char c : model) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (keep) {
      folder.push_back(c);
    } else if (c >= 'A' && c <= 'Z') {
      folder.push_back(static_cast<char>(c - 'A' + 'a'));
    } else if (!folder.empty() && folder.back() != '-') {
      folder.push_back('-');
    }
  }
  while (!folder.empty() && folder.back() == '-') folder.pop_back();
  return folder.empty() ? "unknown" : folder;
}

merge_plan plan_merge(std::vector<shard_input> inputs) {
  if (inputs.empty()) throw std::runtime_error("no finished shard folder (shard.json) in the folders given");
  // Order-independence: decide over a sorted list, the same one folder given twice counted once.
  std::sort(inputs.begin(), inputs.end(), [](const shard_input& a, const shard_input& b) {
    return a.m_doc.m_run_id != b.m_doc.m_run_id ? a.m_doc.m_run_id < b.m_doc.m_run_id : a.m_dir < b.m_dir;
  });
  inputs.erase(std::unique(inputs.begin(), inputs.end(),
                           [](const shard_input& a, const shard_input& b) {
                             return a.m_doc.m_run_id == b.m_doc.m_run_id;
                           }),
               inputs.end());
  merge_plan plan;
  const shard_document& first = inputs.front().m_doc;
  plan.m_suite_sha256 = first.m_suite_sha256;
  plan.m_shard_count = first.m_count;
  plan.m_quick = first.m_quick;
  plan.m_suite_units = first.m_suite_units;
  std::set<std::string> builds;
  for (const shard_input& input : inputs) {
    const shard_document& d = input.m_doc;
    const auto differ = [&](const std::string& what) {
      throw std::runtime_error("the shards in " + inputs.front().m_dir.string() + " and " + input.m_dir.string() +
                               " belong to different runs: " + what + "; merge each run on its own");
    };
    if (d.m_suite_sha256 != plan.m_suite_sha256) differ("the suites differ (kernels, implementations, shapes, seeds or settings)");
    if (d.m_quick != plan.m_quick) differ("one ran --quick, the other did not");
    if (d.m_count != plan.m_shard_count) {
      differ("shard counts " + std::to_string(plan.m_shard_count) + " and " + std::to_string(d.m_count));
    }
    if (d.m_assignment != k_assignment) {
      throw std::runtime_error(input.m_dir.string() + ": unknown shard assignment '" + d.m_assignment + "'");
    }
    builds.insert(d.m_build_sha256);
  }
  plan.m_inputs = std::move(inputs);
  if (builds.size() > 1) {
    plan.m_notes.push_back(std::to_string(builds.size()) +
                           " different build hashes (builds per node; the source hashes of duplicates are compared)");
  }

  // unit -> model -> inputs holding a result
  std::map<std::string, std::map<std::string, std::vector<std::size_t>>> found;
  const std::set<std::string> suite_units(plan.m_suite_units.begin(), plan.m_suite_units.end());
  std::set<int> finished;
  for (std::size_t i = 0; i < plan.m_inputs.size(); ++i) {
    const shard_document& d = plan.m_inputs[i].m_doc;
    finished.insert(d.m_index);
    for (const unit_outcome& u : d.m_units) {
      if (suite_units.count(u.m_unit) == 0 || shard_of(u.m_unit, d.m_count) != d.m_index) {
        throw std::runtime_error(plan.m_inputs[i].m_dir.string() + ": unit " + u.m_unit +
                                 " is not one of shard " + std::to_string(d.m_index) + "'s units");
      }
      found[u.m_unit][u.m_device_model].push_back(i);
    }
  }
  std::map<std::string, merge_group> groups;
  for (const auto& [unit, models] : found) {
    for (const auto& [model, holders] : models) {
      merge_group& g = groups[model];
      g.m_device_model = model;
      std::vector<std::pair<std::size_t, const unit_outcome*>> results;
      for (const std::size_t i : holders) {
        for (const unit_outcome& u : plan.m_inputs[i].m_doc.m_units) {
          if (u.m_unit == unit) results.emplace_back(i, &u);
        }
      }
      std::sort(results.begin(), results.end(), [&](const auto& a, const auto& b) {
        const int ra = rank_of(*a.second), rb = rank_of(*b.second);
        if (ra != rb) return ra < rb;
        const std::string& fa = plan.m_inputs[a.first].m_doc.m_finished_utc;
        const std::string& fb = plan.m_inputs[b.first].m_doc.m_finished_utc;
        if (fa != fb) return fa > fb;
        return plan.m_inputs[a.first].m_doc.m_run_id < plan.m_inputs[b.first].m_doc.m_run_id;
      });
      merged_unit merged;
      merged.m_unit = unit;
      merged.m_chosen = results.front().first;
      const unit_outcome& chosen = *results.front().second;
      std::vector<std::size_t> disagreeing = {merged.m_chosen};
      std::string what;
      for (std::size_t k = 1; k < results.size(); ++k) {
        merged.m_others.push_back(results[k].first);
        const unit_outcome& other = *results[k].second;
        if (rank_of(other) != 0 || rank_of(chosen) != 0) continue;
        std::string differs;
        if (verdicts_of(other) != verdicts_of(chosen)) {
          differs = "correctness " + verdicts_of(chosen) + " vs " + verdicts_of(other);
        } else if ((other.m_bench == "ok") != (chosen.m_bench == "ok")) {
          differs = "benchmark " + chosen.m_bench + " vs " + other.m_bench;
        } else if (other.m_source_sha256 != chosen.m_source_sha256) {
          differs = "source hash " + chosen.m_source_sha256.substr(0, 12) + " vs " + other.m_source_sha256.substr(0, 12);
        }
        if (!differs.empty()) {
          disagreeing.push_back(results[k].first);
          if (what.empty()) what = differs;
        }
      }
      if (disagreeing.size() > 1) g.m_conflicts.push_back({unit, disagreeing, what});
      g.m_units.push_back(std::move(merged));
    }
  }
  std::set<int> missing_shards;
  std::set<std::string> kernels_seen;
  std::set<std::string> folders;
  for (auto& [model, g] : groups) {
    std::set<std::string> kernels, present;
    for (const merged_unit& u : g.m_units) {
      kernels.insert(kernel_of(u.m_unit));
      present.insert(u.m_unit);
    }
    kernels_seen.insert(kernels.begin(), kernels.end());
    for (const std::string& unit : plan.m_suite_units) {
      if (kernels.count(kernel_of(unit)) != 0 && present.count(unit) == 0) {
        g.m_missing_units.push_back(unit);
        missing_shards.insert(shard_of(unit, plan.m_shard_count));
      }
    }
    g.m_folder = model_folder(model);
    for (int n = 2; folders.count(g.m_folder) != 0; ++n) g.m_folder = model_folder(model) + "-" + std::to_string(n);
    folders.insert(g.m_folder);
    plan.m_groups.push_back(std::move(g));
  }
  for (const std::string& unit : plan.m_suite_units) {
    if (kernels_seen.count(kernel_of(unit)) == 0) {
      plan.m_missing_units.push_back(unit);
      missing_shards.insert(shard_of(unit, plan.m_shard_count));
    }
  }
  plan.m_missing_shards.assign(missing_shards.begin(), missing_shards.end());
  for (int i = 0; i < plan.m_shard_count; ++i) {
    if (finished.count(i) == 0) plan.m_absent_shards.push_back(i);
  }
  return plan;
}

scan_result scan_shards(const std::vector<std::filesystem::path>& roots) {
  scan_result result;
  const auto read_one = [&](const std::filesystem::path& dir) {
    result.m_shards.push_back({std::filesystem::absolute(dir).lexically_normal(), read_shard(dir / k_shard_file)});
  };
  for (const std::filesystem::path& root : roots) {
    if (!std::filesystem::is_directory(root)) throw std::runtime_error(root.string() + ": not a folder");
    if (root.extension() == ".partial") {
      result.m_partial.push_back(root);
      continue;
    }
    if (std::filesystem::exists(root / k_shard_file)) {
      read_one(root);
      continue;
    }
    std::vector<std::filesystem::path> children;
    for (const auto& entry : std::filesystem::directory_iterator(root)) {
      if (entry.is_directory()) children.push_back(entry.path());
    }
    std::sort(children.begin(), children.end());
    for (const std::filesystem::path& child : children) {
      if (child.extension() == ".partial") {
        // A shard run that did not finish (not, say, a merge's own temp folder).
        if (child.filename().string().rfind("shard-", 0) == 0) result.m_partial.push_back(child);
      } else if (std::filesystem::exists(child / k_shard_file)) {
        read_one(child);
      }
    }
  }
  return result;
}

}  // namespace kopt::scale
