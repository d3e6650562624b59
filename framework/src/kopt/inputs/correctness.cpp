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

void keep_max(std::optional<double>& worst, const std::optional<double>& value) {
  if (value) worst = worst ? std::max(*worst, *value) : *value;
}

// total += the output's tally `key`; a sum past int64 is an input error
// naming the field, not UB.
void add_tally(std::int64_t& total, std::int64_t value, const json_reader& output, const char* key) {
  if (__builtin_add_overflow(total, value, &total)) output.at(key).fail("the total passes 2^63-1");
}

// A trial passes when its status says so AND its data agrees: no run error,
// no modified input, every output passed with no mismatch and intact
// canaries. `where` is the trial's place in the file, for messages.
trial_view read_trial(const trial_record& trial, const json_reader& where, shape_correctness& shape) {
  trial_view view;
  view.m_seed = trial.m_seed;
  std::vector<std::string> problems;
  if (trial.m_error) problems.push_back(*trial.m_error);
  for (const std::string& input : trial.m_modified_inputs) problems.push_back("input '" + input + "' modified");
  for (std::size_t i = 0; i < trial.m_outputs.size(); ++i) {
    const output_result& out = trial.m_outputs[i];
    const json_reader place = where.at("outputs").at(i);
    keep_max(shape.m_max_abs, out.m_max_abs);
    keep_max(shape.m_max_rel, out.m_max_rel);
    keep_max(shape.m_rel_l2, out.m_rel_l2);
    add_tally(shape.m_mismatches, out.m_mismatches, place, "mismatches");
    add_tally(shape.m_nonfinite, out.m_nonfinite, place, "nonfinite");
    add_tally(shape.m_unwritten, out.m_unwritten, place, "unwritten");
    if (out.m_mismatches != 0) {
      problems.push_back("output '" + out.m_arg + "': " + std::to_string(out.m_mismatches) + " mismatches, max_abs " +
                         format_number(out.m_max_abs));
    }
    if (out.m_canary != "intact") problems.push_back("output '" + out.m_arg + "': canary " + out.m_canary);
    if (!out.m_passed && out.m_mismatches == 0 && out.m_canary == "intact") {
      problems.push_back("output '" + out.m_arg + "': failed (rel_l2 " + format_number(out.m_rel_l2) + ")");
    }
    if (!problems.empty() && !shape.m_first_mismatch && out.m_first_mismatch) {
      shape.m_first_mismatch = shape_first_mismatch{*out.m_first_mismatch, view.m_seed, out.m_arg};
    }
  }
  if (trial.m_status == "pass" && problems.empty()) {
    view.m_passed = true;
  } else if (trial.m_status == "pass") {
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

// Errors are never negative; null or absent is "not measured".
std::optional<double> optional_number(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_non_negative();
}

json to_json(const std::optional<shape_first_mismatch>& m) {
  if (!m) return nullptr;
  json j = to_json(m->m_element);
  j["seed"] = m->m_seed;
  j["arg"] = m->m_arg;
  return j;
}

std::optional<shape_first_mismatch> shape_first_mismatch_from_json(const json_reader& node) {
  if (node.is_null()) return std::nullopt;
  return shape_first_mismatch{first_mismatch_from_json(node), node.at("seed").as_non_negative_integer(),
                              node.at("arg").as_string()};
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
    const json_reader root(doc, path.string());
    const correctness_result result = correctness_result_from_json(root);
    if (result.m_kernel != m.m_kernel) {
      root.at("kernel").fail("expected \"" + m.m_kernel + "\", got \"" + shorten(result.m_kernel) + "\"");
    }
    if (result.m_variant != variant) {
      root.at("variant").fail("expected \"" + variant + "\", got \"" + shorten(result.m_variant) + "\"");
    }
    summary.m_files.push_back(path.filename().string());
    if (summary.m_device.empty() && result.m_device) summary.m_device = *result.m_device;
    if (result.m_status == "skipped") {
      skip_reasons.push_back(result.m_skip_reason.value_or("no reason given"));
      continue;
    }
    for (std::size_t i = 0; i < result.m_trials.size(); ++i) {
      const trial_record& trial = result.m_trials[i];
      any_trial = true;
      shape_correctness& shape = shape_entry(summary.m_shapes, trial.m_shape);
      const trial_view view = read_trial(trial, root.at("trials").at(i), shape);
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
                      {"first_mismatch", to_json(s.m_first_mismatch)}});
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
    shape.m_first_mismatch = shape_first_mismatch_from_json(s.at("first_mismatch"));
    summary.m_shapes.push_back(std::move(shape));
  }
  return summary;
}

}  // namespace kopt
