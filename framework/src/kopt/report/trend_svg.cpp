#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/format.hpp"
#include "kopt/report/html.hpp"
#include "kopt/report/report_model.hpp"

namespace kopt {
namespace {

constexpr double k_width = 640;
constexpr double k_height = 300;
constexpr double k_left = 80;
constexpr double k_right = 20;
constexpr double k_top = 20;
constexpr double k_bottom = 50;

std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

// The ticks of a log axis over [lo, hi]: 1, 2 and 5 times the powers of
// ten, or every integer multiple when that gives fewer than three.
std::vector<double> log_ticks(double lo, double hi) {
  for (const std::vector<double>& multiples :
       {std::vector<double>{1, 2, 5}, std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
    std::vector<double> ticks;
    for (double decade = std::pow(10.0, std::floor(std::log10(lo))); decade <= hi; decade *= 10) {
      for (const double m : multiples) {
        if (m * decade >= lo && m * decade <= hi) ticks.push_back(m * decade);
      }
    }
    if (ticks.size() >= 3) return ticks;
  }
  return {lo, std::sqrt(lo * hi), hi};
}

}  // namespace

std::string render_trend_svg(const report_model& r) {
  // A log axis: speedups read as equal steps, and a reference 20x slower
  // does not flatten the versions against the floor.
  double top_ns = r.m_reference_geomean_ns.value_or(0);
  double bottom_ns = r.m_reference_geomean_ns.value_or(1e300);
  for (const report_version& v : r.m_versions) {
    if (!v.m_geomean_ns) continue;
    top_ns = std::max(top_ns, *v.m_geomean_ns);
    bottom_ns = std::min(bottom_ns, *v.m_geomean_ns);
  }
  std::string svg = "<svg id=\"trend-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(k_width) +
                    "\" height=\"" + num(k_height) + "\" viewBox=\"0 0 " + num(k_width) + " " +
                    num(k_height) + "\" role=\"img\" aria-labelledby=\"trend-title\">\n";
  svg += "<title id=\"trend-title\">" + html_escape(r.m_kernel) + ": geomean time per version</title>\n";
  const double plot_w = k_width - k_left - k_right;
  const double plot_h = k_height - k_top - k_bottom;
  svg += "<rect x=\"" + num(k_left) + "\" y=\"" + num(k_top) + "\" width=\"" + num(plot_w) + "\" height=\"" +
         num(plot_h) + "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
  if (top_ns <= 0) {
    svg += "<text x=\"" + num(k_width / 2) + "\" y=\"" + num(k_height / 2) +
           "\" text-anchor=\"middle\">no timed version yet</text>\n</svg>\n";
    return svg;
  }
  const double y_min = bottom_ns / 1.25;
  const double y_max = top_ns * 1.25;
  const double span = std::log(y_max / y_min);
  auto y_of = [&](double ns) { return k_top + plot_h * (1 - std::log(ns / y_min) / span); };
  const std::size_t count = r.m_versions.size();
  auto x_of = [&](std::size_t i) {
    return k_left + plot_w * (static_cast<double>(i) + 0.5) / static_cast<double>(count);
  };

  for (const double tick : log_ticks(y_min, y_max)) {
    svg += "<line x1=\"" + num(k_left) + "\" x2=\"" + num(k_left + plot_w) + "\" y1=\"" + num(y_of(tick)) +
           "\" y2=\"" + num(y_of(tick)) + "\" stroke=\"#e0e0e0\"/>\n";
    svg += "<text x=\"" + num(k_left - 6) + "\" y=\"" + num(y_of(tick) + 4) +
           "\" text-anchor=\"end\" font-size=\"11\">" + html_escape(format_time_ns(tick)) + "</text>\n";
  }
  if (r.m_reference_geomean_ns) {
    const double y = y_of(*r.m_reference_geomean_ns);
    svg += "<line class=\"reference\" x1=\"" + num(k_left) + "\" x2=\"" + num(k_left + plot_w) + "\" y1=\"" +
           num(y) + "\" y2=\"" + num(y) + "\" stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n";
    svg += "<text x=\"" + num(k_left + plot_w - 4) + "\" y=\"" + num(y - 4) +
           "\" text-anchor=\"end\" font-size=\"11\">" +
           html_escape(r.m_reference_name.value_or("reference")) + "</text>\n";
  }
  // Best-so-far: a step line through the accepted versions.
  std::string best_line;
  for (std::size_t i = 0; i < count; ++i) {
    const report_version& v = r.m_versions[i];
    if (v.m_decision != "ACCEPT" || !v.m_geomean_ns) continue;
    best_line += (best_line.empty() ? "" : " ") + num(x_of(i)) + "," + num(y_of(*v.m_geomean_ns));
  }
  if (!best_line.empty()) {
    svg += "<polyline class=\"best-so-far\" points=\"" + best_line +
           "\" fill=\"none\" stroke=\"#2e7d32\" stroke-width=\"2\"/>\n";
  }
  for (std::size_t i = 0; i < count; ++i) {
    const report_version& v = r.m_versions[i];
    svg += "<text x=\"" + num(x_of(i)) + "\" y=\"" + num(k_top + plot_h + 18) +
           "\" text-anchor=\"middle\" font-size=\"12\">" + html_escape(v.m_variant) + "</text>\n";
    if (!v.m_geomean_ns) continue;
    const bool accepted = v.m_decision == "ACCEPT";
    const std::string color = accepted ? "#2e7d32" : (v.m_decision == "MASKED" ? "#9e9e9e" : "#c62828");
    svg += "<circle class=\"version " + html_escape(v.m_decision) + "\" cx=\"" + num(x_of(i)) + "\" cy=\"" +
           num(y_of(*v.m_geomean_ns)) + "\" r=\"5\" fill=\"" + (accepted ? color : std::string("white")) +
           "\" stroke=\"" + color + "\" stroke-width=\"2\"><title>" +
           html_escape(v.m_variant + " " + v.m_decision + ": " + format_time_ns(v.m_geomean_ns)) +
           "</title></circle>\n";
  }
  svg += "<text x=\"" + num(k_left + plot_w / 2) + "\" y=\"" + num(k_height - 8) +
         "\" text-anchor=\"middle\" font-size=\"12\">geomean time per version (log scale); filled: "
         "accepted, hollow red: rejected, grey: masked</text>\n";
  svg += "</svg>\n";
  return svg;
}

}  // namespace kopt
