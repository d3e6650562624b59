#include "core/format.hpp"
#include "kopt/report/html.hpp"
#include "kopt/report/notes_markdown.hpp"
#include "kopt/report/report_model.hpp"

namespace kopt {
namespace {

// Nothing wider than the page: wide tables scroll inside their own box
// (div.scroll), charts shrink with it, long words break.
const char* const k_style =
    R"(body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em;overflow-wrap:break-word}
.scroll{overflow-x:auto;max-width:100%}svg{max-width:100%;height:auto;display:block}
details summary{cursor:pointer}h3{font-size:1.05em;margin:1.2em 0 .3em}.flag{color:#c62828}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0;font-size:.92em}
th,td{border:1px solid #ccc;padding:.3em .6em;vertical-align:top;text-align:left}
th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.best td{background:#eef7ee}.ACCEPT{color:#2e7d32;font-weight:600}.REJECT{color:#c62828;font-weight:600}
.MASKED{color:#777}.met{color:#2e7d32}.unmet{color:#c62828}.unknown{color:#8a6d00}
pre{background:#f6f6f6;padding:1em;white-space:pre-wrap}.muted{color:#777}
#notes pre{overflow-x:auto;white-space:pre}#notes table{display:block;overflow-x:auto;max-width:100%})";

std::string td(const std::string& text, const char* cls = nullptr) {
  return std::string("<td") + (cls != nullptr ? std::string(" class=\"") + cls + "\"" : "") + ">" +
         html_escape(text) + "</td>";
}

// Long text folded: the first words as the summary, the whole on a click.
std::string folded(const std::string& text, std::size_t keep = 60) {
  if (text.size() <= keep + 10) return html_escape(text);
  std::size_t cut = text.rfind(' ', keep);
  if (cut == std::string::npos || cut < keep / 2) cut = keep;
  return "<details><summary>" + html_escape(text.substr(0, cut)) + " …</summary>" + html_escape(text) +
         "</details>";
}

std::string opt_num(const std::optional<double>& value, int digits = 4) {
  return value ? format_number(*value, digits) : "-";
}

std::string shape_table_html(const report_model& r, const shape_table& t) {
  std::string out = "<h3>" + html_escape(t.m_shape) + "</h3>\n<div class=\"scroll\"><table class=\"shape\">\n";
  out += "<tr><th>impl</th><th>decision</th><th>median</th><th>p10 - p90</th><th>noise</th><th>TFLOP/s</th>"
         "<th>GB/s</th><th>% of ceiling</th>";
  for (const std::string& b : r.m_baselines) out += "<th>vs " + html_escape(b) + "</th>";
  out += "<th>flags</th></tr>\n";
  for (const shape_row& row : t.m_rows) {
    out += row.m_is_best ? "<tr class=\"best\">" : "<tr>";
    out += td(row_label(row));
    out += td(row.m_decision + (row.m_is_best ? " (best)" : ""),
              row.m_decision.empty() ? nullptr : row.m_decision.c_str());
    if (row.m_error) {
      out += "<td colspan=\"" + std::to_string(7 + r.m_baselines.size()) + "\">benchmark failed: " +
             html_escape(*row.m_error) + "</td></tr>\n";
      continue;
    }
    out += td(format_time_ns(row.m_median_ns), "num");
    out += td(row.m_p10_ns && row.m_p90_ns ? format_time_ns(row.m_p10_ns) + " - " + format_time_ns(row.m_p90_ns)
                                           : "-",
              "num");
    out += td(format_noise(row.m_noise), "num");
    out += td(opt_num(row.m_tflops), "num") + td(opt_num(row.m_gbps), "num");
    out += td(row.m_pct_of_ceiling ? format_percent(row.m_pct_of_ceiling) + " " + *row.m_ceiling : "-", "num");
    for (const auto& v : row.m_vs_baselines) out += td(v ? format_speedup(v) : "-", "num");
    out += "<td class=\"flag\">" + html_escape(join(row.m_flags, ", ")) + "</td></tr>\n";
  }
  return out + "</table></div>\n";
}

std::string summary_row(const std::string& label, const std::string& value, const char* cls = nullptr) {
  return "<tr><th>" + html_escape(label) + "</th>" + td(value, cls) + "</tr>\n";
}

}  // namespace

std::string render_html(const report_model& r) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                    html_escape(r.m_kernel) + ": optimization report</title>\n<style>\n" + k_style +
                    "\n</style>\n</head>\n<body>\n";
  out += "<h1>" + html_escape(r.m_kernel) + ": optimization report</h1>\n";
  out += "<p class=\"muted\">Generated " + html_escape(r.m_generated_utc) + " by <code>kopt report</code>" +
         (r.m_device.empty() ? std::string() : " from measurements on " + html_escape(r.m_device)) +
         ".</p>\n";

  out += "<h2>Summary</h2>\n<table id=\"summary\">\n";
  out += summary_row("best variant", r.m_best.value_or("none accepted yet"));
  out += summary_row("speedup vs " + r.m_root.value_or("root"),
                     format_speedup(r.m_best_vs_root) + " (across runs)");
  if (r.m_reference_name)
    out += summary_row("speedup vs " + *r.m_reference_name, format_speedup(r.m_best_vs_reference));
  for (const auto& [name, value] : r.m_best_vs_baselines)
    out += summary_row("speedup vs " + name, format_speedup(value));
  for (const target_result& t : r.m_targets)
    out += summary_row("target " + t.m_target, t.m_status, t.m_status.c_str());
  out += summary_row("stop reason", r.m_stop_reason);
  out += "</table>\n";

  out +=
      "<h2>Versions</h2>\n<div class=\"scroll\"><table id=\"versions\">\n<tr><th>version</th><th>parent</th>"
      "<th>hypothesis</th><th>correctness</th><th>geomean time</th><th>vs parent</th><th>vs " +
      html_escape(r.m_root.value_or("root")) +
      "</th><th>decision</th><th>reasons</th><th>bottleneck</th></tr>\n";
  for (const report_version& v : r.m_versions) {
    out += std::string(v.m_is_best ? "<tr class=\"best\">" : "<tr>");
    out += td(v.m_variant + (v.m_quick ? " (quick)" : "")) + td(v.m_parent.value_or("-")) + "<td>" +
           folded(v.m_hypothesis.value_or("-")) + "</td>" + td(v.m_correctness);
    out += td(v.m_recorded ? format_time_ns(v.m_geomean_ns) : "-", "num");
    out += td(v.m_recorded && v.m_parent ? format_speedup(v.m_vs_parent) : "-", "num");
    out += td(v.m_recorded ? format_speedup(v.m_vs_root) : "-", "num");
    out += td(v.m_decision + (v.m_is_best ? " (best)" : ""), v.m_decision.c_str());
    out += "<td>";
    if (v.m_reasons.size() == 1) out += folded(v.m_reasons[0]);
    if (v.m_reasons.size() > 1) {
      out += "<details><summary>" + std::to_string(v.m_reasons.size()) + " reasons</summary>";
      for (std::size_t i = 0; i < v.m_reasons.size(); ++i)
        out += (i ? "<br>" : "") + html_escape(v.m_reasons[i]);
      out += "</details>";
    }
    out += "</td>" + td(v.m_bottleneck) + "</tr>\n";
  }
  out += "</table></div>\n";

  out += "<h2>Per shape</h2>\n<div id=\"shapes\">\n<p class=\"muted\">Each version from its own run; the "
         "reference and baselines as timed with the best (their rates scaled from the best's by the time ratio). "
         "noise: relative standard error of the median. % of ceiling: the roofline's fraction of attainable at "
         "the work model's intensity, against the measured ceiling named.</p>\n";
  for (const shape_table& t : r.m_shape_tables) out += shape_table_html(r, t);
  out += "</div>\n";

  out += "<h2>Targets</h2>\n";
  if (r.m_targets.empty()) out += "<p>No TARGET declared.</p>\n";
  out += "<ul id=\"targets\">\n";
  for (const target_result& t : r.m_targets) {
    out += "<li><code>" + html_escape(t.m_target) + "</code>: <span class=\"" + t.m_status + "\">" +
           t.m_status + "</span>";
    if (!t.m_details.empty()) {
      out += "<ul>";
      for (const std::string& d : t.m_details) out += "<li>" + html_escape(d) + "</li>";
      out += "</ul>";
    }
    out += "</li>\n";
  }
  out += "</ul>\n";

  if (!r.m_ablations.empty()) {
    out += "<h2>Ablation</h2>\n<p>Each switchable METHOD switched off (<code>kopt ablate</code>, docs/ablation.md).</p>\n";
    for (const report_ablation& a : r.m_ablations) {
      out += "<h3>" + html_escape(a.m_variant) + "</h3>\n" + render_ablation_html(a.m_result);
    }
  }
  out += "<h2>Trend</h2>\n" + render_trend_svg(r);
  out += "<h2>Roofline</h2>\n<div id=\"roofline\">\n" + render_roofline_svg(r);
  const roofline_model& roofline = r.m_roofline;
  out += "<p class=\"muted\">Roofs: ";
  if (roofline.m_bandwidth) {
    out += html_escape(roofline.m_bandwidth->m_name) + " " + html_escape(format_number(roofline.m_bandwidth->m_value / 1e9, 4)) +
           " GB/s" + (roofline.m_bandwidth->m_measured ? " (measured)" : " (spec)") + "; ";
  } else {
    out += "no bandwidth ceiling; ";
  }
  out += roofline.m_compute.empty() ? "no compute ceiling" : html_escape(roofline.m_compute_why);
  out += ".</p>\n";
  if (!roofline.m_missing.empty()) {
    out += "<details><summary>" + std::to_string(roofline.m_missing.size()) + " without a point</summary><ul>";
    for (const std::string& m : roofline.m_missing) out += "<li>" + html_escape(m) + "</li>";
    out += "</ul></details>\n";
  }
  out += "</div>\n";
  out += "<h2>Spread</h2>\n" + render_distribution_svg(r);

  out += "<h2>Environment</h2>\n<div class=\"scroll\"><table id=\"environment\">\n";
  for (const auto& [label, value] : r.m_machine) out += summary_row(label, value);
  out += "</table></div>\n<div class=\"scroll\"><table id=\"runs\">\n<tr><th>version</th><th>device</th>"
         "<th>driver</th><th>CUDA</th><th>SM clock while timed</th><th>flags</th></tr>\n";
  for (const run_environment& run : r.m_runs) {
    out += "<tr>" + td(run.m_variant) + td(run.m_device) + td(run.m_driver) + td(run.m_cuda) +
           td(run.m_sm_clock, "num") + "<td class=\"flag\">" + html_escape(join(run.m_flags, "; ")) + "</td></tr>\n";
  }
  out += "</table></div>\n";
  for (const report_family& f : r.m_families) {
    out += "<h2>Family " + html_escape(f.m_variant) + "</h2>\n";
    if (!f.m_error.empty()) {
      out += "<p>The selection cannot be read: " + html_escape(f.m_error) + "</p>\n";
      continue;
    }
    out += "<p>" + std::to_string(f.m_points) + " points, " + std::to_string(f.m_failed) +
           " failed; the sweep table and frontier: <a href=\"" + html_escape(f.m_variant) + ".sweep.html\">" +
           html_escape(f.m_variant) + ".sweep.html</a>.</p>\n<table><tr><th>shape</th><th>served by</th></tr>\n";
    for (const auto& [shape, point] : f.m_served) {
      out += "<tr><td>" + html_escape(shape) + "</td><td>" + html_escape(point) + "</td></tr>\n";
    }
    out += "</table>\n";
  }
  if (!r.m_notes.empty()) out += "<h2>Notes</h2>\n<div id=\"notes\">\n" + notes_to_html(r.m_notes) + "</div>\n";
  out += "<h2>Stop or continue</h2>\n<ul id=\"stop\">\n";
  out += std::string("<li>") + (r.m_stop ? "<strong>stop</strong>" : "continue") + ": " +
         html_escape(r.m_stop_reason) + "</li>\n<li>next: " + html_escape(r.m_next_step) + "</li>\n</ul>\n";
  out += "<h3>Methods tried</h3>\n";
  if (r.m_methods_tried.empty()) {
    out += "<p>No record yet.</p>\n";
  } else {
    out += "<div class=\"scroll\"><table id=\"methods\">\n<tr><th>version</th><th>methods</th><th>decision</th><th>outcome</th>"
           "<th>vs parent</th></tr>\n";
    for (const report_method& t : r.m_methods_tried) {
      out += "<tr>" + td(t.m_variant) + td(t.m_methods.empty() ? "-" : join(t.m_methods, ", ")) +
             td(t.m_decision, t.m_decision.c_str()) + td(t.m_outcome) + td(t.m_outcome == "root" ? "-" : format_speedup(t.m_vs_parent), "num") +
             "</tr>\n";
    }
    out += "</table></div>\n";
  }
  out += "<h3>Recommendations</h3>\n";
  if (r.m_recommendations.empty()) {
    out += "<p class=\"muted\">None: the experience store holds no method yet.</p>\n";
  } else {
    out += "<div class=\"scroll\"><table id=\"recommendations\">\n<tr><th>method</th><th>score</th><th>evidence</th><th>tried here</th></tr>\n";
    for (const report_advice& a : r.m_recommendations) {
      out += "<tr>" + td(a.m_method) + td(format_number(a.m_score, 3), "num") + td(a.m_evidence) +
             td(a.m_tried.empty() ? "-" : a.m_tried) + "</tr>\n";
    }
    out += "</table></div>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace kopt
