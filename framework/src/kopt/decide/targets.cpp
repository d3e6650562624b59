#include "kopt/decide/targets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/expr.hpp"
#include "core/format.hpp"
#include "formats/ceilings.hpp"

namespace kopt {
namespace {

void add_dims(const shape& at, std::map<std::string, double>& values) {
  for (const auto& [name, value] : at.values()) values[name] = value;
}

bool compare(double lhs, const std::string& op, double rhs) {
  if (op == "<") return lhs < rhs;
  if (op == "<=") return lhs <= rhs;
  if (op == ">") return lhs > rhs;
  if (op == ">=") return lhs >= rhs;
  if (op == "==") return lhs == rhs;
  return lhs != rhs;
}

std::string trim(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t");
  const std::size_t last = text.find_last_not_of(" \t");
  return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

// "0.85*ceiling.copy_bandwidth = 3400", or just "1" for a side that is a number.
std::string describe_side(const std::string& text, double value) {
  const std::string side = trim(text);
  char* end = nullptr;
  (void)std::strtod(side.c_str(), &end);
  if (!side.empty() && *end == '\0') return side;
  return side + " = " + format_number(value);
}

// Resolves peak.<name> / ceiling.<name>; sets `why` when it cannot.
std::optional<double> ceiling_value(const std::string& name, const std::optional<ceilings_file>& ceilings,
                                    std::string& why) {
  const bool peak = name.rfind("peak.", 0) == 0;
  const std::string key = name.substr(peak ? 5 : 8);
  if (!ceilings) {
    why = name + ": no ceilings in the record (pass --ceilings FILE)";
    return std::nullopt;
  }
  const ceiling* c = ceilings->find(key);
  if (c == nullptr) {
    why = name + ": the ceilings file has no \"" + key + "\"";
    return std::nullopt;
  }
  if (!peak && !c->measured()) {
    why = name + ": \"" + key + "\" is not measured (source: " + c->m_source + "); use peak." + key;
    return std::nullopt;
  }
  std::string reason;
  const std::optional<double> value = value_in_target_units(*c, reason);
  if (!value) why = name + ": " + reason;
  return value;
}

target_result evaluate_one(const std::string& target, const timing_summary& timing,
                           const std::optional<ceilings_file>& ceilings) {
  target_result result{target, "met", {}};
  comparison parts;
  std::vector<std::string> names;
  try {
    parts = split_comparison(target);
    names = referenced_names(target);
  } catch (const expr_error& error) {
    return {target, "unknown", {error.what()}};
  }
  bool timed = false;
  bool unmet = false;
  bool unknown = false;
  for (const shape_timing& shape : timing.m_shapes) {
    if (shape.m_error) continue;
    timed = true;
    std::map<std::string, double> values = shape_values(shape);
    std::vector<std::string> unresolved;
    for (const std::string& name : names) {
      if (values.count(name) != 0) continue;
      std::string why = name + ": not known for this shape";
      if (name.rfind("peak.", 0) == 0 || name.rfind("ceiling.", 0) == 0) {
        if (const std::optional<double> v = ceiling_value(name, ceilings, why)) {
          values[name] = *v;
          continue;
        }
      }
      unresolved.push_back(why);
    }
    if (!unresolved.empty()) {
      unknown = true;
      for (const std::string& why : unresolved) {
        if (std::find(result.m_details.begin(), result.m_details.end(), why) == result.m_details.end()) {
          result.m_details.push_back(why);
        }
      }
      continue;
    }
    double lhs = 0;
    double rhs = 0;
    try {
      lhs = evaluate(parts.m_lhs, values);
      rhs = evaluate(parts.m_rhs, values);
    } catch (const expr_error& error) {
      unknown = true;
      result.m_details.push_back(shape.m_shape.text() + ": " + error.what());
      continue;
    }
    const bool holds = compare(lhs, parts.m_op, rhs);
    unmet = unmet || !holds;
    result.m_details.push_back(shape.m_shape.text() + ": " + describe_side(parts.m_lhs, lhs) + ", " +
                               describe_side(parts.m_rhs, rhs) + (holds ? ": holds" : ": does not hold"));
  }
  if (!timed) return {target, "unknown", {"no timed shape"}};
  // One shape that does not hold settles it; otherwise an unknown shape leaves it open.
  result.m_status = unmet ? "unmet" : (unknown ? "unknown" : "met");
  return result;
}

}  // namespace

std::map<std::string, double> shape_values(const shape_timing& t) {
  std::map<std::string, double> values;
  add_dims(t.m_shape, values);
  values["time_ns"] = t.m_stats.m_median_ns;
  values["time_us"] = t.m_stats.m_median_ns / 1e3;
  values["time_ms"] = t.m_stats.m_median_ns / 1e6;
  if (t.m_tflops) values["tflops"] = *t.m_tflops;
  if (t.m_gbps) values["gbps"] = *t.m_gbps;
  if (t.m_speedup_vs_reference) values["speedup_vs_reference"] = *t.m_speedup_vs_reference;
  if (t.m_speedup_vs_parent) values["speedup_vs_parent"] = *t.m_speedup_vs_parent;
  for (const auto& [name, value] : t.m_speedup_vs_baselines) {
    if (value) values["speedup_vs_" + name] = *value;
  }
  if (t.m_pct_of_ceiling) {
    for (const auto& [name, fraction] : *t.m_pct_of_ceiling) values["pct_of_ceiling." + name] = fraction;
  }
  return values;
}

std::vector<target_result> evaluate_targets(const std::vector<std::string>& targets,
                                            const timing_summary& timing,
                                            const std::optional<ceilings_file>& ceilings) {
  std::vector<target_result> results;
  for (const std::string& target : targets) results.push_back(evaluate_one(target, timing, ceilings));
  return results;
}

bool all_met(const std::vector<target_result>& results) {
  if (results.empty()) return false;
  return std::all_of(results.begin(), results.end(),
                     [](const target_result& r) { return r.m_status == "met"; });
}

std::optional<std::vector<std::pair<std::string, double>>> roofline_gaps(
    const embedded_document<profile::profile_document>& profile) {
  if (!profile.m_document) return std::nullopt;
  const profile::impl_profile* own = profile::single_impl(*profile.m_document);
  if (own == nullptr || own->m_roofline.empty()) return std::nullopt;
  std::vector<std::pair<std::string, double>> gaps;
  for (const profile::roofline_gap& g : own->m_roofline) gaps.emplace_back(g.m_shape, g.m_gap);
  return gaps;
}

}  // namespace kopt
