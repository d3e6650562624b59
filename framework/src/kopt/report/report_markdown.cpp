#include "core/format.hpp"
#include "kopt/report/report_model.hpp"

namespace kopt {
namespace {

// Table cells may not hold '|' or line breaks.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string decision_text(const report_version& v) { return v.m_decision + (v.m_is_best ? " (best)" : ""); }

}  // namespace

std::string render_markdown(const report_model& r) {
  std::string out = "# " + r.m_kernel + ": optimization report\n\n";
  out += "Generated " + r.m_generated_utc + " by `kopt report`" +
         (r.m_device.empty() ? std::string() : " from measurements on " + r.m_device) + ".\n\n";

  out += "## Summary\n\n";
  out += "| | |\n|---|---|\n";
  out += "| best variant | " + r.m_best.value_or("none accepted yet") + " |\n";
  out += "| speedup vs " + r.m_root.value_or("root") + " | " + format_speedup(r.m_best_vs_root) +
         " (across runs) |\n";
  if (r.m_reference_name) {
    out += "| speedup vs " + *r.m_reference_name + " | " + format_speedup(r.m_best_vs_reference) + " |\n";
  }
  for (const auto& [name, value] : r.m_best_vs_baselines) {
    out += "| speedup vs " + name + " | " + format_speedup(value) + " |\n";
  }
  for (const target_result& t : r.m_targets) {
    out += "| target `" + cell(t.m_target) + "` | " + t.m_status + " |\n";
  }
  out += "| stop reason | " + cell(r.m_stop_reason) + " |\n\n";

  out += "## Versions\n\n";
  out += "| version | parent | hypothesis | correctness | geomean time | vs parent | vs " +
         r.m_root.value_or("root") + " | decision | reasons | bottleneck |\n";
  out += "|---|---|---|---|---:|---:|---:|---|---|---|\n";
  for (const report_version& v : r.m_versions) {
    out += "| " + v.m_variant + (v.m_quick ? " (quick)" : "") + " | " + v.m_parent.value_or("-") + " | " +
           cell(v.m_hypothesis.value_or("-")) + " | " + v.m_correctness + " | " +
           (v.m_recorded ? format_time_ns(v.m_geomean_ns) : "-") + " | " +
           (v.m_recorded && v.m_parent ? format_speedup(v.m_vs_parent) : "-") + " | " +
           (v.m_recorded ? format_speedup(v.m_vs_root) : "-") + " | " + decision_text(v) + " | " +
           cell(join(v.m_reasons, "; ")) + " | " + cell(v.m_bottleneck) + " |\n";
  }

  out += "\n## Per shape (median time)\n\n| impl |";
  std::string rule = "|---|";
  for (const std::string& shape : r.m_shapes) {
    out += " " + shape + " |";
    rule += "---:|";
  }
  out += "\n" + rule + "\n";
  for (const report_version& v : r.m_versions) {
    if (!v.m_recorded) continue;
    out += "| " + v.m_variant + " |";
    for (const auto& ns : v.m_shape_ns) out += " " + (ns ? format_time_ns(ns) : std::string("-")) + " |";
    out += "\n";
  }
  for (const auto& [name, times] : r.m_other_rows) {
    out += "| " + name + " (with " + r.m_best.value_or("best") + ") |";
    for (const auto& ns : times) out += " " + (ns ? format_time_ns(ns) : std::string("-")) + " |";
    out += "\n";
  }

  out += "\n## Targets\n\n";
  if (r.m_targets.empty()) out += "No TARGET declared.\n";
  for (const target_result& t : r.m_targets) {
    out += "- `" + t.m_target + "`: " + t.m_status + "\n";
    for (const std::string& detail : t.m_details) out += "  - " + detail + "\n";
  }

  out += "\n## Trend\n\nThe HTML report (report.html) draws the geomean time per version.\n";
  out += "\n## Roofline\n\n";
  out += r.m_roofline_available ? "See the HTML report.\n"
                                : "No roofline yet: it needs profile data (`profile-" + r.m_kernel + "`).\n";
  for (const report_family& f : r.m_families) {
    out += "\n## Family " + f.m_variant + "\n\n";
    if (!f.m_error.empty()) {
      out += "The selection cannot be read: " + f.m_error + "\n";
      continue;
    }
    out += std::to_string(f.m_points) + " points, " + std::to_string(f.m_failed) + " failed; the sweep table and " +
           "frontier: [" + f.m_variant + ".sweep.md](" + f.m_variant + ".sweep.md).\n\n| shape | served by |\n|---|---|\n";
    for (const auto& [shape, point] : f.m_served) out += "| " + shape + " | " + point + " |\n";
  }
  if (!r.m_notes.empty()) out += "\n## Notes\n\n" + r.m_notes + (r.m_notes.back() == '\n' ? "" : "\n");

  // Last, for whoever decides the next step (docs/agents.md).
  out += "\n## Stop or continue\n\n";
  out += std::string("- ") + (r.m_stop ? "**stop**" : "continue") + ": " + r.m_stop_reason + "\n";
  out += "- next: " + r.m_next_step + "\n";
  out += "\n### Methods tried\n\n";
  if (r.m_methods_tried.empty()) out += "No record yet.\n";
  else out += "| version | methods | decision | outcome | vs parent |\n|---|---|---|---|---:|\n";
  for (const report_method& t : r.m_methods_tried) {
    out += "| " + t.m_variant + " | " + cell(t.m_methods.empty() ? "-" : join(t.m_methods, ", ")) + " | " +
           t.m_decision + " | " + t.m_outcome + " | " + (t.m_outcome == "root" ? "-" : format_speedup(t.m_vs_parent)) + " |\n";
  }
  out += "\n### Recommendations\n\n";
  if (r.m_recommendations.empty()) {
    out += "None: the experience store holds no method yet.\n";
  } else {
    out += "The top of `kopt recommend --kernel " + r.m_kernel + "` over the experience store.\n\n";
    out += "| method | score | evidence | tried here |\n|---|---:|---|---|\n";
  }
  for (const report_advice& a : r.m_recommendations) {
    out += "| " + cell(a.m_method) + " | " + format_number(a.m_score, 3) + " | " + cell(a.m_evidence) + " | " +
           cell(a.m_tried.empty() ? "-" : a.m_tried) + " |\n";
  }
  return out;
}

}  // namespace kopt
