#include "kopt/inputs/correctness.hpp"

#include <algorithm>
#include <map>

#include "core/format.hpp"

namespace kopt {
namespace {

struct trial_view {
  std::int64_t m_seed = 0;
  bool m_passed = false;
  std::string m_failure;  // why it failed, read from the data
};

// Errors and tallies are never negative; null or absent is "not measured".
std::optional<double> optional_number(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_non_negative();
}

void keep_max(std::optional<double>& worst, const json_reader& output, const char* key) {
  if (!output.has(key)) return;
  const double value = output.at(key).as_non_negative();
  worst = worst ? std::max(*worst, value) : value;
}

// total += the tally at `node`; a sum past int64 is an input error, not UB.
void add_tally(std::int64_t& total, const json_reader& node) {
  const std::int64_t value = node.as_non_negative_integer();
  if (__builtin_add_overflow(total, value, &total)) node.fail("the total passes 2^63-1");
}

// A trial passes when its status says so AND its data agrees: no run error,
// no modified input, every output passed with no mismatch and intact canaries.
trial_view read_trial(const json_reader& trial, shape_correctness& shape) {
  trial_view view;
  view.m_seed = trial.at("seed").as_non_negative_integer();
  const std::string status = trial.at("status").as_string();
  if (status != "pass" && status != "fail") {
    trial.at("status").fail("expected \"pass\" or \"fail\", got \"" + shorten(status) + "\"");
  }
  std::vector<std::string> problems;
  if (trial.has("error")) problems.push_back(trial.at("error").as_string());
  if (trial.has("modified_inputs")) {
    const json_reader modified = trial.at("modified_inputs");
    for (std::size_t i = 0; i < modified.size(); ++i) {
      problems.push_back("input '" + modified.at(i).as_string() + "' modified");
    }
  }
  const json_reader outputs = trial.at("outputs");
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const json_reader out = outputs.at(i);
    const std::string arg = out.at("arg").as_string();
    keep_max(shape.m_max_abs, out, "max_abs");
    keep_max(shape.m_max_rel, out, "max_rel");
    keep_max(shape.m_rel_l2, out, "rel_l2");
    const std::int64_t mismatches = out.at("mismatches").as_non_negative_integer();
    add_tally(shape.m_mismatches, out.at("mismatches"));
    if (out.has("nonfinite")) add_tally(shape.m_nonfinite, out.at("nonfinite"));
    if (out.has("unwritten")) add_tally(shape.m_unwritten, out.at("unwritten"));
    const std::string canary = out.at("canary").as_string();
    const bool output_passed = !out.has("passed") || out.at("passed").as_bool();
    if (mismatches != 0) {
      problems.push_back("output '" + arg + "': " + std::to_string(mismatches) + " mismatches, max_abs " +
                         format_number(optional_number(out, "max_abs")));
    }
    if (canary != "intact") problems.push_back("output '" + arg + "': canary " + canary);
    if (!output_passed && mismatches == 0 && canary == "intact") {
      problems.push_back("output '" + arg + "': failed (rel_l2 " +
                         format_number(optional_number(out, "rel_l2")) + ")");
    }
    if (!problems.empty() && shape.m_first_mismatch.is_null() && out.has("first_mismatch")) {
      const json_reader first = out.at("first_mismatch");
      if (!first.raw().is_object()) first.fail("expected an object");
      shape.m_first_mismatch = first.raw();
      shape.m_first_mismatch["seed"] = view.m_seed;
      shape.m_first_mismatch["arg"] = arg;
    }
  }
  if (status == "pass" && problems.empty()) {
    view.m_passed = true;
  } else if (status == "pass") {
    view.m_failure = "results say pass, but " + join(problems, "; ");
  } else {
    view.m_failure = problems.empty() ? "failed" : join(problems, "; ");
  }
  return view;
}

shape_correctness& shape_entry(std::vector<shape_correctness>& shapes, const std::string& text) {
  for (shape_correctness& s : shapes) {
    if (s.m_shape == text) return s;
  }
  shapes.push_back({});
  shapes.back().m_shape = text;
  return shapes.back();
}

std::vector<std::int64_t> integers(const json_reader& node) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < node.size(); ++i) out.push_back(node.at(i).as_non_negative_integer());
  return out;
}

}  // namespace

std::string correctness_summary::problem() const {
  const std::string prefix = "correctness not established: ";
  if (m_status == "pass") return {};
  if (m_status == "skipped") return prefix + "skipped (" + m_skip_reason + ")";
  std::vector<std::string> parts;
  for (const shape_correctness& shape : m_shapes) {
    if (shape.m_status == "pass") continue;
    std::string part = shape.m_shape + ": ";
    if (!shape.m_errors.empty()) part += shape.m_errors.front();
    if (!shape.m_seeds_missing.empty()) {
      std::vector<std::string> seeds;
      for (const std::int64_t s : shape.m_seeds_missing) seeds.push_back(std::to_string(s));
      part += std::string(shape.m_errors.empty() ? "" : "; ") + "no result for seed " + join(seeds, ", ");
    }
    parts.push_back(part);
  }
  if (m_status == "fail") return "incorrect: " + join(parts, " | ");
  return prefix + (parts.empty() ? std::string("no results") : join(parts, " | "));
}

correctness_summary summarize_correctness(const manifest& m, const std::string& variant,
                                          const std::vector<std::filesystem::path>& files) {
  correctness_summary summary;
  for (const std::string& shape : m.m_shapes) shape_entry(summary.m_shapes, shape);
  std::map<std::string, std::map<std::int64_t, bool>> seen;  // shape -> seed -> passed (all trials)
  std::vector<std::string> skip_reasons;
  bool any_trial = false;
  for (const std::filesystem::path& path : files) {
    const json doc = read_json_file(path);
    check_kind(doc, path, "kernelopt.correctness", 1);
    const json_reader root(doc, path.string());
    if (root.at("kernel").as_string() != m.m_kernel) {
      root.at("kernel").fail("expected \"" + m.m_kernel + "\", got \"" + shorten(root.at("kernel").as_string()) +
                             "\"");
    }
    if (root.at("variant").as_string() != variant) {
      root.at("variant").fail("expected \"" + variant + "\", got \"" + shorten(root.at("variant").as_string()) + "\"");
    }
    summary.m_files.push_back(path.filename().string());
    if (summary.m_device.empty() && root.has("device")) summary.m_device = root.at("device").as_string();
    const std::string status = root.at("status").as_string();
    if (status == "skipped") {
      skip_reasons.push_back(root.has("skip_reason") ? root.at("skip_reason").as_string()
                                                     : "no reason given");
      continue;
    }
    if (status != "pass" && status != "fail") {
      root.at("status").fail("expected \"pass\", \"fail\" or \"skipped\", got \"" + shorten(status) + "\"");
    }
    const json_reader trials = root.at("trials");
    for (std::size_t i = 0; i < trials.size(); ++i) {
      const json_reader trial = trials.at(i);
      any_trial = true;
      shape_correctness& shape = shape_entry(summary.m_shapes, trial.at("shape").as_string());
      const trial_view view = read_trial(trial, shape);
      auto [it, inserted] = seen[shape.m_shape].emplace(view.m_seed, view.m_passed);
      if (!inserted) it->second = it->second && view.m_passed;
      if (!view.m_passed)
        shape.m_errors.push_back("seed " + std::to_string(view.m_seed) + ": " + view.m_failure);
    }
  }
  bool any_fail = false;
  bool any_missing = false;
  for (shape_correctness& shape : summary.m_shapes) {
    const std::map<std::int64_t, bool>& seeds = seen[shape.m_shape];
    const bool declared = std::find(m.m_shapes.begin(), m.m_shapes.end(), shape.m_shape) != m.m_shapes.end();
    for (const auto& [seed, passed] : seeds)
      (passed ? shape.m_seeds_passed : shape.m_seeds_failed).push_back(seed);
    if (declared) {
      for (const std::int64_t seed : m.m_seeds) {
        if (seeds.count(seed) == 0) shape.m_seeds_missing.push_back(seed);
      }
    }
    shape.m_status =
        !shape.m_seeds_failed.empty() ? "fail" : (!shape.m_seeds_missing.empty() ? "incomplete" : "pass");
    any_fail = any_fail || shape.m_status == "fail";
    any_missing = any_missing || shape.m_status == "incomplete";
  }
  if (!any_trial && !skip_reasons.empty()) {
    summary.m_status = "skipped";
    summary.m_skip_reason = join(skip_reasons, "; ");
  } else {
    summary.m_status = any_fail ? "fail" : (any_missing ? "incomplete" : "pass");
  }
  return summary;
}

json to_json(const correctness_summary& summary) {
  json shapes = json::array();
  for (const shape_correctness& s : summary.m_shapes) {
    shapes.push_back({{"shape", s.m_shape},
                      {"status", s.m_status},
                      {"seeds_passed", s.m_seeds_passed},
                      {"seeds_failed", s.m_seeds_failed},
                      {"seeds_missing", s.m_seeds_missing},
                      {"max_abs", number_or_null(s.m_max_abs)},
                      {"max_rel", number_or_null(s.m_max_rel)},
                      {"rel_l2", number_or_null(s.m_rel_l2)},
                      {"mismatches", s.m_mismatches},
                      {"nonfinite", s.m_nonfinite},
                      {"unwritten", s.m_unwritten},
                      {"errors", s.m_errors},
                      {"first_mismatch", s.m_first_mismatch}});
  }
  return {{"status", summary.m_status},
          {"skip_reason", summary.m_skip_reason.empty() ? json(nullptr) : json(summary.m_skip_reason)},
          {"device", summary.m_device.empty() ? json(nullptr) : json(summary.m_device)},
          {"files", summary.m_files},
          {"shapes", shapes}};
}

correctness_summary correctness_from_json(const json_reader& node) {
  correctness_summary summary;
  summary.m_status = node.at("status").as_string();
  if (node.has("skip_reason")) summary.m_skip_reason = node.at("skip_reason").as_string();
  if (node.has("device")) summary.m_device = node.at("device").as_string();
  const json_reader files = node.at("files");
  for (std::size_t i = 0; i < files.size(); ++i) summary.m_files.push_back(files.at(i).as_string());
  const json_reader shapes = node.at("shapes");
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const json_reader s = shapes.at(i);
    shape_correctness shape;
    shape.m_shape = s.at("shape").as_string();
    shape.m_status = s.at("status").as_string();
    shape.m_seeds_passed = integers(s.at("seeds_passed"));
    shape.m_seeds_failed = integers(s.at("seeds_failed"));
    shape.m_seeds_missing = integers(s.at("seeds_missing"));
    shape.m_max_abs = optional_number(s, "max_abs");
    shape.m_max_rel = optional_number(s, "max_rel");
    shape.m_rel_l2 = optional_number(s, "rel_l2");
    shape.m_mismatches = s.at("mismatches").as_non_negative_integer();
    shape.m_nonfinite = s.at("nonfinite").as_non_negative_integer();
    shape.m_unwritten = s.at("unwritten").as_non_negative_integer();
    const json_reader errors = s.at("errors");
    for (std::size_t e = 0; e < errors.size(); ++e) shape.m_errors.push_back(errors.at(e).as_string());
    shape.m_first_mismatch = s.at("first_mismatch").raw();
    summary.m_shapes.push_back(std::move(shape));
  }
  return summary;
}

}  // namespace kopt
