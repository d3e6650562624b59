// The attribution table of an ablation (docs/ablation.md), in Markdown and
// HTML: formatting only; compare/attribution.hpp computed it.
#include <cmath>

#include "core/format.hpp"
#include "kopt/report/html.hpp"
#include "kopt/report/report_model.hpp"

namespace kopt {
namespace {

std::string noise_text(const std::optional<double>& noise) {
  return noise ? format_percent(*noise) : std::string("unknown");
}

std::string attribution_text(double ns) { return (ns < 0 ? "-" : "") + format_time_ns(std::fabs(ns)); }

std::string class_text(const ablation_method& m) {
  return m.m_class == k_ablation_failed ? m.m_class + " (" + m.m_failure.value_or("unknown") + ")" : m.m_class;
}

// The shape, and for a family the champion point that served it.
std::string shape_text(const ablation_shape& s) { return s.m_point ? s.m_shape + " (" + *s.m_point + ")" : s.m_shape; }

// A Markdown cell: '|' would end it.
std::string cell(std::string text) {
  for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2)) text.replace(at, 1, "\\|");
  return text;
}

std::string footnote(const ablation_result& a) {
  return "attribution = time without the method - time with it; relative = without / with - 1 (" +
         std::to_string(a.m_repetitions) + " benchmark process" + (a.m_repetitions == 1 ? "" : "es") +
         (a.m_quick ? ", quick shapes" : "") + ", " + a.m_utc + "); effective: slower without it by more than max(" +
         format_percent(a.m_threshold) + ", 3 x noise), kopt compare's SLOWER";
}

}  // namespace

std::string render_ablation_markdown(const ablation_result& a) {
  std::string out =
      "| method | class | shape | with | without | attribution | relative | noise | verdict |\n"
      "|---|---|---|---:|---:|---:|---:|---:|---|\n";
  for (const ablation_method& m : a.m_methods) {
    if (m.m_class == k_ablation_failed) {
      out += "| " + m.m_method + " | " + class_text(m) + " | | | | | | | " + cell(m.m_detail) + " |\n";
      continue;
    }
    for (const ablation_shape& s : m.m_shapes) {
      out += "| " + m.m_method + " | " + m.m_class + " | " + shape_text(s) + " | " + format_time_ns(s.m_with_ns) + " | " +
             format_time_ns(s.m_without_ns) + " | " + attribution_text(s.m_attribution_ns) + " | " +
             format_percent(s.m_change, true) + " | " + noise_text(s.m_noise) + " | " + s.m_verdict + " |\n";
    }
    out += "| " + m.m_method + " | " + m.m_class + " | geomean | | | | " +
           (m.m_change ? format_percent(*m.m_change, true) : std::string("unknown")) + " | " + noise_text(m.m_noise) +
           " | " + cell(m.m_detail) + " |\n";
  }
  return out + "\n" + footnote(a) + "\n";
}

std::string render_ablation_html(const ablation_result& a) {
  const auto td = [](const std::string& text, const char* cls = nullptr) {
    return std::string("<td") + (cls != nullptr ? std::string(" class=\"") + cls + "\"" : "") + ">" +
           html_escape(text) + "</td>";
  };
  std::string out =
      "<div class=\"scroll\"><table class=\"ablation\">\n<tr><th>method</th><th>class</th><th>shape</th><th>with</th><th>without</th>"
      "<th>attribution</th><th>relative</th><th>noise</th><th>verdict</th></tr>\n";
  for (const ablation_method& m : a.m_methods) {
    if (m.m_class == k_ablation_failed) {
      out += "<tr>" + td(m.m_method) + td(class_text(m), "REJECT") + "<td colspan=\"6\"></td>" + td(m.m_detail) +
             "</tr>\n";
      continue;
    }
    const char* cls = m.m_class == k_ablation_effective ? "ACCEPT" : nullptr;
    for (const ablation_shape& s : m.m_shapes) {
      out += "<tr>" + td(m.m_method) + td(m.m_class, cls) + td(shape_text(s)) + td(format_time_ns(s.m_with_ns), "num") +
             td(format_time_ns(s.m_without_ns), "num") + td(attribution_text(s.m_attribution_ns), "num") +
             td(format_percent(s.m_change, true), "num") + td(noise_text(s.m_noise), "num") + td(s.m_verdict) +
             "</tr>\n";
    }
    out += "<tr>" + td(m.m_method) + td(m.m_class, cls) + td("geomean") + "<td></td><td></td><td></td>" +
           td(m.m_change ? format_percent(*m.m_change, true) : std::string("unknown"), "num") +
           td(noise_text(m.m_noise), "num") + td(m.m_detail) + "</tr>\n";
  }
  return out + "</table></div>\n<p class=\"muted\">" + html_escape(footnote(a)) + "</p>\n";
}

}  // namespace kopt
