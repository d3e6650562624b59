#include "core/format.hpp"
#include "kopt/report/notes_markdown.hpp"
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

// A table cell's short form; the whole text goes into the list below the table.
std::string shortened(const std::string& text, std::size_t keep = 60) {
  if (text.size() <= keep + 10) return text;
  std::size_t cut = text.rfind(' ', keep);
  if (cut == std::string::npos || cut < keep / 2) cut = keep;
  return text.substr(0, cut) + " …";
}

std::string opt_num(const std::optional<double>& value) { return value ? format_number(*value) : "-"; }

std::string shape_table_md(const report_model& r, const shape_table& t) {
  std::string out = "### " + t.m_shape + "\n\n| impl | decision | median | p10 - p90 | noise | TFLOP/s | GB/s | % of ceiling |";
  std::string rule = "|---|---|---:|---:|---:|---:|---:|---:|";
  for (const std::string& b : r.m_baselines) {
    out += " vs " + cell(b) + " |";
    rule += "---:|";
  }
  out += " flags |\n" + rule + "---|\n";
  for (const shape_row& row : t.m_rows) {
    out += "| " + row_label(row) + " | " + row.m_decision +
           (row.m_is_best ? " (best)" : "") + " |";
    if (row.m_error) {
      out += " benchmark failed: " + cell(*row.m_error) + " |";
      for (std::size_t i = 0; i < 6 + r.m_baselines.size(); ++i) out += " |";
      out += "\n";
      continue;
    }
    out += " " + format_time_ns(row.m_median_ns) + " | " +
           (row.m_p10_ns && row.m_p90_ns ? format_time_ns(row.m_p10_ns) + " - " + format_time_ns(row.m_p90_ns)
                                         : std::string("-")) +
           " | " + format_noise(row.m_noise) + " | " + opt_num(row.m_tflops) +
           " | " + opt_num(row.m_gbps) + " | " +
           (row.m_pct_of_ceiling ? format_percent(row.m_pct_of_ceiling) + " " + *row.m_ceiling : std::string("-")) +
           " |";
    for (const auto& v : row.m_vs_baselines) out += " " + (v ? format_speedup(v) : std::string("-")) + " |";
    out += " " + cell(join(row.m_flags, ", ")) + " |\n";
  }
  return out + "\n";
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
  std::string details;
  for (const report_version& v : r.m_versions) {
    const std::string hypothesis = v.m_hypothesis.value_or("-");
    const std::string reasons = join(v.m_reasons, "; ");
    out += "| " + v.m_variant + (v.m_quick ? " (quick)" : "") + " | " + v.m_parent.value_or("-") + " | " +
           cell(shortened(hypothesis)) + " | " + v.m_correctness + " | " +
           (v.m_recorded ? format_time_ns(v.m_geomean_ns) : "-") + " | " +
           (v.m_recorded && v.m_parent ? format_speedup(v.m_vs_parent) : "-") + " | " +
           (v.m_recorded ? format_speedup(v.m_vs_root) : "-") + " | " + decision_text(v) + " | " +
           cell(shortened(reasons)) + " | " + cell(v.m_bottleneck) + " |\n";
    if (shortened(hypothesis) != hypothesis || shortened(reasons) != reasons) {
      details += "- **" + v.m_variant + "**: " + hypothesis + "\n";
      for (const std::string& reason : v.m_reasons) details += "  - " + reason + "\n";
    }
  }
  if (!details.empty()) out += "\nHypotheses and reasons in full:\n\n" + details;

  out += "\n## Per shape\n\nEach version from its own run; the reference and baselines as timed with the best "
         "(their rates scaled from the best's by the time ratio). noise: relative standard error of the median. "
         "% of ceiling: the roofline's fraction of attainable at the work model's intensity, against the measured "
         "ceiling named.\n\n";
  for (const shape_table& t : r.m_shape_tables) out += shape_table_md(r, t);

  out += "## Targets\n\n";
  if (r.m_targets.empty()) out += "No TARGET declared.\n";
  for (const target_result& t : r.m_targets) {
    out += "- `" + t.m_target + "`: " + t.m_status + "\n";
    for (const std::string& detail : t.m_details) out += "  - " + detail + "\n";
  }

  if (!r.m_ablations.empty()) {
    out += "\n## Ablation\n\nEach switchable METHOD switched off (`kopt ablate`, docs/ablation.md).\n";
    for (const report_ablation& a : r.m_ablations) {
      out += "\n### " + a.m_variant + "\n\n" + render_ablation_markdown(a.m_result);
    }
  }

  out += "\n## Trend\n\nreport.html draws the median time per version and shape, with the reference and "
         "baselines; the numbers are in the tables above.\n";

  const roofline_model& roofline = r.m_roofline;
  out += "\n## Roofline\n\n";
  if (roofline.m_dots.empty()) {
    out += "No roofline point: no version has FLOPS and BYTES timings.\n";
  } else {
    out += "report.html draws it (log-log). Roofs: ";
    out += roofline.m_bandwidth ? roofline.m_bandwidth->m_name + " " +
                                      format_number(roofline.m_bandwidth->m_value / 1e9) + " GB/s" +
                                      (roofline.m_bandwidth->m_measured ? " (measured)" : " (spec)")
                                : std::string("no bandwidth ceiling");
    out += "; ";
    for (const roof& c : roofline.m_compute)
      out += c.m_name + " " + format_number(c.m_value / 1e12) + " TFLOP/s" + (c.m_measured ? " (measured)" : " (spec)") +
             "; ";
    out += roofline.m_compute.empty() ? "no compute ceiling" : "chosen: " + roofline.m_compute_why;
    out += ".\n\n| impl | shape | FLOP/B | TFLOP/s | from |\n|---|---|---:|---:|---|\n";
    for (const roofline_dot& d : roofline.m_dots) {
      out += "| " + d.m_impl + (d.m_is_best ? " (best)" : "") + " | " + d.m_shape + " | " +
             format_number(d.m_intensity) + " | " + format_number(d.m_flops_per_s / 1e12) + " | " + d.m_source +
             " |\n";
    }
  }
  for (const std::string& m : roofline.m_missing) out += "- no point: " + m + "\n";

  out += "\n## Spread\n\n";
  if (r.m_distribution.empty()) out += "No accepted version yet.\n";
  if (!r.m_distribution.empty()) {
    out += "The record keeps p10 and p90 of the best's samples, and only median and noise of the others.\n\n"
           "| shape | impl | p10 | median | p90 | noise | samples |\n|---|---|---:|---:|---:|---:|---:|\n";
    for (const distribution_row& d : r.m_distribution) {
      out += "| " + d.m_shape + " | " + d.m_impl + " (" + d.m_role + ") | " +
             (d.m_p10_ns ? format_time_ns(d.m_p10_ns) : std::string("-")) + " | " + format_time_ns(d.m_median_ns) +
             " | " + (d.m_p90_ns ? format_time_ns(d.m_p90_ns) : std::string("-")) + " | " +
             format_noise(d.m_noise) + " | " +
             (d.m_samples > 0 ? std::to_string(d.m_samples) : std::string("-")) + " |\n";
    }
  }

  out += "\n## Environment\n\n";
  if (!r.m_machine.empty()) {
    out += "| | |\n|---|---|\n";
    for (const auto& [label, value] : r.m_machine) out += "| " + label + " | " + cell(value) + " |\n";
    out += "\n";
  }
  out += "| version | device | driver | CUDA | SM clock while timed | flags |\n|---|---|---|---|---:|---|\n";
  for (const run_environment& run : r.m_runs) {
    out += "| " + run.m_variant + " | " + cell(run.m_device) + " | " + cell(run.m_driver) + " | " + run.m_cuda +
           " | " + run.m_sm_clock + " | " + cell(join(run.m_flags, "; ")) + " |\n";
  }
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
  if (!r.m_notes.empty()) out += "\n## Notes\n\n" + notes_to_markdown(r.m_notes);

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
