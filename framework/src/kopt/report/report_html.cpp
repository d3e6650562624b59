#include "core/format.hpp"
#include "kopt/report/html.hpp"
#include "kopt/report/report_model.hpp"

namespace kopt {
namespace {

const char* const k_style =
    R"(body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0;font-size:.92em}
th,td{border:1px solid #ccc;padding:.3em .6em;vertical-align:top;text-align:left}
th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.best td{background:#eef7ee}.ACCEPT{color:#2e7d32;font-weight:600}.REJECT{color:#c62828;font-weight:600}
.MASKED{color:#777}.met{color:#2e7d32}.unmet{color:#c62828}.unknown{color:#8a6d00}
pre{background:#f6f6f6;padding:1em;white-space:pre-wrap}.muted{color:#777})";

std::string td(const std::string& text, const char* cls = nullptr) {
  return std::string("<td") + (cls != nullptr ? std::string(" class=\"") + cls + "\"" : "") + ">" +
         html_escape(text) + "</td>";
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
      "<h2>Versions</h2>\n<table id=\"versions\">\n<tr><th>version</th><th>parent</th><th>hypothesis</th>"
      "<th>correctness</th><th>geomean time</th><th>vs parent</th><th>vs " +
      html_escape(r.m_root.value_or("root")) +
      "</th><th>decision</th><th>reasons</th><th>bottleneck</th></tr>\n";
  for (const report_version& v : r.m_versions) {
    out += std::string(v.m_is_best ? "<tr class=\"best\">" : "<tr>");
    out += td(v.m_variant + (v.m_quick ? " (quick)" : "")) + td(v.m_parent.value_or("-")) +
           td(v.m_hypothesis.value_or("-")) + td(v.m_correctness);
    out += td(v.m_recorded ? format_time_ns(v.m_geomean_ns) : "-", "num");
    out += td(v.m_recorded && v.m_parent ? format_speedup(v.m_vs_parent) : "-", "num");
    out += td(v.m_recorded ? format_speedup(v.m_vs_root) : "-", "num");
    out += td(v.m_decision + (v.m_is_best ? " (best)" : ""), v.m_decision.c_str());
    out += "<td>";
    for (std::size_t i = 0; i < v.m_reasons.size(); ++i)
      out += (i ? "<br>" : "") + html_escape(v.m_reasons[i]);
    out += "</td>" + td(v.m_bottleneck) + "</tr>\n";
  }
  out += "</table>\n";

  out += "<h2>Per shape (median time)</h2>\n<table id=\"shapes\">\n<tr><th>impl</th>";
  for (const std::string& shape : r.m_shapes) out += "<th>" + html_escape(shape) + "</th>";
  out += "</tr>\n";
  for (const report_version& v : r.m_versions) {
    if (!v.m_recorded) continue;
    out += "<tr>" + td(v.m_variant);
    for (const auto& ns : v.m_shape_ns) out += td(ns ? format_time_ns(ns) : "-", "num");
    out += "</tr>\n";
  }
  for (const auto& [name, times] : r.m_other_rows) {
    out += "<tr>" + td(name + " (with " + r.m_best.value_or("best") + ")");
    for (const auto& ns : times) out += td(ns ? format_time_ns(ns) : "-", "num");
    out += "</tr>\n";
  }
  out += "</table>\n";

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

  out += "<h2>Trend</h2>\n" + render_trend_svg(r);
  out += "<h2>Roofline</h2>\n<div id=\"roofline\">";
  out += r.m_roofline_available
             ? "<p>Roofline data is present in the profile; its chart is not drawn yet.</p>"
             : "<p class=\"muted\">No roofline yet: it needs profile data (<code>profile-" +
                   html_escape(r.m_kernel) + "</code>).</p>";
  out += "</div>\n";
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
  if (!r.m_notes.empty()) out += "<h2>Notes</h2>\n<pre id=\"notes\">" + html_escape(r.m_notes) + "</pre>\n";
  out += "<h2>Stop or continue</h2>\n<ul id=\"stop\">\n";
  out += std::string("<li>") + (r.m_stop ? "<strong>stop</strong>" : "continue") + ": " +
         html_escape(r.m_stop_reason) + "</li>\n<li>next: " + html_escape(r.m_next_step) + "</li>\n</ul>\n";
  out += "<h3>Methods tried</h3>\n";
  if (r.m_methods_tried.empty()) {
    out += "<p>No record yet.</p>\n";
  } else {
    out += "<table id=\"methods\">\n<tr><th>version</th><th>methods</th><th>decision</th><th>outcome</th>"
           "<th>vs parent</th></tr>\n";
    for (const report_method& t : r.m_methods_tried) {
      out += "<tr>" + td(t.m_variant) + td(t.m_methods.empty() ? "-" : join(t.m_methods, ", ")) +
             td(t.m_decision, t.m_decision.c_str()) + td(t.m_outcome) + td(t.m_outcome == "root" ? "-" : format_speedup(t.m_vs_parent), "num") +
             "</tr>\n";
    }
    out += "</table>\n";
  }
  out += "<h3>Recommendations</h3>\n";
  if (r.m_recommendations.empty()) {
    out += "<p class=\"muted\">None: the experience store holds no method yet.</p>\n";
  } else {
    out += "<table id=\"recommendations\">\n<tr><th>method</th><th>score</th><th>evidence</th><th>tried here</th></tr>\n";
    for (const report_advice& a : r.m_recommendations) {
      out += "<tr>" + td(a.m_method) + td(format_number(a.m_score, 3), "num") + td(a.m_evidence) +
             td(a.m_tried.empty() ? "-" : a.m_tried) + "</tr>\n";
    }
    out += "</table>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace kopt
