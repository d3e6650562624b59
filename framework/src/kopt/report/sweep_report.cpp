#include "kopt/report/sweep_report.hpp"

#include <cstdio>
#include <sstream>

#include "core/json_io.hpp"
#include "kopt/report/html.hpp"

namespace kopt {
namespace {

std::string time_text(double ns) {
  char text[48];
  if (ns >= 1e6) {
    std::snprintf(text, sizeof text, "%.3g ms", ns / 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.3g us", ns / 1e3);
  }
  return text;
}

std::string ratio_text(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3fx", ratio);
  return text;
}

const point_result* result_of(const sweep_report& r, const std::string& point) {
  for (const point_result& p : r.m_results) {
    if (p.m_point == point) return &p;
  }
  return nullptr;
}

// The cell of `point` at `shape`: its time, "**...** (champion)", or why none.
std::string cell(const sweep_report& r, const point_result* p, const shape_selection& shape, bool html) {
  if (p == nullptr) return "no result";
  if (!p->usable()) return p->m_build.m_status != "ok" ? "build failed" : p->m_correctness.m_status != "pass" ? "incorrect" : "not timed";
  const point_time* t = p->time_of(shape.m_shape);
  if (t == nullptr) return "-";
  std::string text = time_text(t->m_median_ns);
  if (p->m_point == shape.m_champion) return html ? "<b>" + text + " &#9733;</b>" : "**" + text + "** ★";
  return text + " (" + ratio_text(t->m_median_ns / shape.m_median_ns) + ")";
}

}  // namespace

std::string render_sweep_markdown(const sweep_report& r) {
  const selection& s = r.m_selection;
  std::ostringstream md;
  md << "# Sweep of " << s.m_kernel << "/" << s.m_variant << "\n\n";
  md << s.m_points.size() << " points, " << s.m_failed.size() << " failed; frontier margin "
     << s.m_margin * 100 << " %; selected " << s.m_utc << ".\n\n";
  md << "## Sweep table\n\nMedian per shape; ★ marks the shape's champion, (x) the ratio to it.\n\n| point | params |";
  for (const shape_selection& shape : s.m_shapes) md << " " << shape.m_shape << " |";
  md << "\n|---|---|";
  for (std::size_t i = 0; i < s.m_shapes.size(); ++i) md << "---|";
  md << "\n";
  for (const std::string& point : s.m_points) {
    const point_result* p = result_of(r, point);
    std::string params;
    if (p != nullptr) {
      for (const std::string& kv : p->m_params) params += (params.empty() ? "" : ", ") + kv;
    }
    md << "| " << point << " | " << params << " |";
    for (const shape_selection& shape : s.m_shapes) md << " " << cell(r, p, shape, false) << " |";
    md << "\n";
  }
  md << "\n## Champion per shape (the dispatch)\n\n| shape | point | median |\n|---|---|---|\n";
  for (const shape_selection& shape : s.m_shapes) {
    md << "| " << shape.m_shape << " | " << shape.m_champion << " | " << time_text(shape.m_median_ns) << " |\n";
  }
  md << "\n## Frontier (within " << s.m_margin * 100 << " % of the champion)\n\n| shape | points |\n|---|---|\n";
  for (const shape_selection& shape : s.m_shapes) {
    std::string points;
    for (const frontier_entry& e : shape.m_frontier) {
      points += (points.empty() ? "" : ", ") + e.m_point + " " + ratio_text(e.m_ratio);
    }
    md << "| " << shape.m_shape << " | " << points << " |\n";
  }
  md << "\n## Failed points\n\n";
  if (s.m_failed.empty()) md << "None.\n";
  for (const failed_point& f : s.m_failed) md << "- " << f.m_point << ": " << shorten(f.m_reason, 200) << "\n";
  for (const sweep_report_section& extra : r.m_extra) md << "\n## " << extra.m_title << "\n\n" << extra.m_markdown << "\n";
  return md.str();
}

std::string render_sweep_html(const sweep_report& r) {
  const selection& s = r.m_selection;
  std::ostringstream h;
  const std::string title = "Sweep of " + s.m_kernel + "/" + s.m_variant;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << html_escape(title)
    << "</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
       "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child,th:first-child{text-align:left}"
       ".champion{background:#dfd}.failed{color:#a00}</style></head><body>\n";
  h << "<h1>" << html_escape(title) << "</h1>\n<p>" << s.m_points.size() << " points, " << s.m_failed.size()
    << " failed; frontier margin " << s.m_margin * 100 << " %; selected " << html_escape(s.m_utc) << ".</p>\n";
  h << "<h2>Sweep table</h2>\n<table><tr><th>point</th><th>params</th>";
  for (const shape_selection& shape : s.m_shapes) h << "<th>" << html_escape(shape.m_shape) << "</th>";
  h << "</tr>\n";
  for (const std::string& point : s.m_points) {
    const point_result* p = result_of(r, point);
    std::string params;
    if (p != nullptr) {
      for (const std::string& kv : p->m_params) params += (params.empty() ? "" : ", ") + kv;
    }
    h << "<tr" << (p == nullptr || !p->usable() ? " class=\"failed\"" : "") << "><td>" << html_escape(point)
      << "</td><td>" << html_escape(params) << "</td>";
    for (const shape_selection& shape : s.m_shapes) {
      const bool champion = shape.m_champion == point;
      const std::string text = cell(r, p, shape, true);
      h << "<td" << (champion ? " class=\"champion\"" : "") << ">" << (champion ? text : html_escape(text)) << "</td>";
    }
    h << "</tr>\n";
  }
  h << "</table>\n<h2>Champion per shape (the dispatch)</h2>\n<table><tr><th>shape</th><th>point</th><th>median</th></tr>\n";
  for (const shape_selection& shape : s.m_shapes) {
    h << "<tr><td>" << html_escape(shape.m_shape) << "</td><td>" << html_escape(shape.m_champion) << "</td><td>"
      << time_text(shape.m_median_ns) << "</td></tr>\n";
  }
  h << "</table>\n<h2>Frontier</h2>\n<table><tr><th>shape</th><th>points within the margin</th></tr>\n";
  for (const shape_selection& shape : s.m_shapes) {
    std::string points;
    for (const frontier_entry& e : shape.m_frontier) points += (points.empty() ? "" : ", ") + e.m_point + " " + ratio_text(e.m_ratio);
    h << "<tr><td>" << html_escape(shape.m_shape) << "</td><td>" << html_escape(points) << "</td></tr>\n";
  }
  h << "</table>\n<h2>Failed points</h2>\n<ul>\n";
  for (const failed_point& f : s.m_failed) {
    h << "<li>" << html_escape(f.m_point) << ": " << html_escape(shorten(f.m_reason, 200)) << "</li>\n";
  }
  h << "</ul>\n";
  for (const sweep_report_section& extra : r.m_extra) h << "<h2>" << html_escape(extra.m_title) << "</h2>\n" << extra.m_html << "\n";
  h << "</body></html>\n";
  return h.str();
}

void write_sweep_report(const sweep_report& report, const std::filesystem::path& dir) {
  const std::string& v = report.m_selection.m_variant;
  write_file_atomic(dir / (v + ".sweep.md"), render_sweep_markdown(report));
  write_file_atomic(dir / (v + ".sweep.html"), render_sweep_html(report));
}

std::filesystem::path selection_file(const manifest& m, const variant_decl& family) {
  return m.kernel_records_dir() / (family.m_name + ".selection.json");
}

void write_selection(const manifest& m, const variant_decl& family, const sweep_report& report) {
  write_json_atomic(selection_file(m, family), to_json(report.m_selection));
  write_sweep_report(report, m.kernel_records_dir() / "report");
}

void touch_selection_stamp(const manifest& m) {
  const std::filesystem::path stamp = m.build_dir() / "selection.stamp";
  if (std::filesystem::exists(stamp)) {
    std::filesystem::last_write_time(stamp, std::filesystem::file_time_type::clock::now());
  }
}

sweep_report select_family(const manifest& m, const variant_decl& family, const std::filesystem::path& sweep_dir,
                           double margin) {
  sweep_report report;
  report.m_results = load_point_results(family, sweep_dir);
  report.m_selection = compute_selection(m, family, report.m_results, margin);
  write_selection(m, family, report);
  return report;
}

}  // namespace kopt
