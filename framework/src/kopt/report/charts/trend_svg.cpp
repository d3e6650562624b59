// The trend chart: median time per version, one line per shape through the
// accepted versions (best so far), rejected ones as hollow marks, and the
// reference and baselines (timed with the best) as dashed lines.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/format.hpp"
#include "kopt/report/report_model.hpp"
#include "kopt/report/charts/svg.hpp"

namespace kopt {
namespace {

constexpr double k_width = 900;
constexpr double k_left = 80;
constexpr double k_right = 230;  // the legend
constexpr double k_top = 20;
constexpr double k_plot_h = 280;
constexpr double k_bottom = 50;

// A dash pattern per other implementation: the reference dotted.
std::string dash_of(std::size_t index, bool reference) {
  if (reference) return "2 3";
  static const char* const dashes[] = {"7 4", "12 4 3 4", "4 4"};
  return dashes[index % 3];
}

}  // namespace

std::string render_trend_svg(const report_model& r) {
  using namespace svg;
  // A log axis: speedups read as equal steps, and a reference 20x slower
  // does not flatten the versions against the floor.
  double top_ns = 0;
  double bottom_ns = 1e300;
  auto extend = [&](const std::optional<double>& ns) {
    if (!ns || *ns <= 0) return;
    top_ns = std::max(top_ns, *ns);
    bottom_ns = std::min(bottom_ns, *ns);
  };
  for (const report_version& v : r.m_versions)
    for (const auto& ns : v.m_shape_ns) extend(ns);
  for (const auto& [name, times] : r.m_other_rows)
    for (const auto& ns : times) extend(ns);
  const std::size_t shapes = r.m_shapes.size();
  const double legend_h = 20.0 * static_cast<double>(shapes + r.m_other_rows.size() + 3);
  const double height = k_top + std::max(k_plot_h, legend_h) + k_bottom;
  std::string out = open("trend-chart", r.m_kernel + ": median time per version and shape", k_width, height);
  const double plot_w = k_width - k_left - k_right;
  const double plot_h = height - k_top - k_bottom;
  out += "<rect x=\"" + num(k_left) + "\" y=\"" + num(k_top) + "\" width=\"" + num(plot_w) + "\" height=\"" +
         num(plot_h) + "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
  if (top_ns <= 0) {
    out += text(k_left + plot_w / 2, k_top + plot_h / 2, "no timed version yet", "middle", 13);
    return out + "</svg>\n";
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
    out += line(k_left, y_of(tick), k_left + plot_w, y_of(tick), "#e0e0e0");
    out += text(k_left - 6, y_of(tick) + 4, format_time_ns(tick), "end");
  }
  for (std::size_t i = 0; i < count; ++i)
    out += text(x_of(i), k_top + plot_h + 18, r.m_versions[i].m_variant, "middle", 12);

  // The others, timed with the best: one dashed line per shape.
  for (std::size_t o = 0; o < r.m_other_rows.size(); ++o) {
    const auto& [name, times] = r.m_other_rows[o];
    const bool reference = r.m_reference_name && name == *r.m_reference_name;
    for (std::size_t s = 0; s < shapes && s < times.size(); ++s) {
      if (!times[s]) continue;
      out += "<line class=\"" + std::string(reference ? "reference" : "baseline") + "\" x1=\"" + num(k_left) +
             "\" x2=\"" + num(k_left + plot_w) + "\" y1=\"" + num(y_of(*times[s])) + "\" y2=\"" +
             num(y_of(*times[s])) + "\" stroke=\"" + shape_color(s) + "\" stroke-dasharray=\"" +
             dash_of(o, reference) + "\" stroke-width=\"1.5\"><title>" +
             html_escape(name + " at " + r.m_shapes[s] + ": " + format_time_ns(times[s])) + "</title></line>\n";
    }
  }
  for (std::size_t s = 0; s < shapes; ++s) {
    const std::string color = shape_color(s);
    std::string points;
    for (std::size_t i = 0; i < count; ++i) {
      const report_version& v = r.m_versions[i];
      if (v.m_decision != "ACCEPT" || s >= v.m_shape_ns.size() || !v.m_shape_ns[s]) continue;
      points += (points.empty() ? "" : " ") + num(x_of(i)) + "," + num(y_of(*v.m_shape_ns[s]));
    }
    if (!points.empty()) {
      out += "<polyline class=\"best-so-far\" points=\"" + points + "\" fill=\"none\" stroke=\"" + color +
             "\" stroke-width=\"2\"/>\n";
    }
    for (std::size_t i = 0; i < count; ++i) {
      const report_version& v = r.m_versions[i];
      if (s >= v.m_shape_ns.size() || !v.m_shape_ns[s]) continue;
      const bool accepted = v.m_decision == "ACCEPT";
      const std::string stroke = v.m_decision == "MASKED" ? "#9e9e9e" : color;
      out += "<circle class=\"version " + html_escape(v.m_decision) + "\" cx=\"" + num(x_of(i)) + "\" cy=\"" +
             num(y_of(*v.m_shape_ns[s])) + "\" r=\"4.5\" fill=\"" + (accepted ? color : std::string("white")) +
             "\" stroke=\"" + stroke + "\" stroke-width=\"2\"><title>" +
             html_escape(v.m_variant + " " + v.m_decision + " at " + r.m_shapes[s] + ": " +
                         format_time_ns(v.m_shape_ns[s])) +
             "</title></circle>\n";
    }
  }
  // The legend, right of the plot.
  const double lx = k_left + plot_w + 16;
  double ly = k_top + 12;
  for (std::size_t s = 0; s < shapes; ++s, ly += 20) {
    out += line(lx, ly - 4, lx + 22, ly - 4, shape_color(s), " stroke-width=\"2\"");
    out += text(lx + 28, ly, r.m_shapes[s]);
  }
  for (std::size_t o = 0; o < r.m_other_rows.size(); ++o, ly += 20) {
    const bool reference = r.m_reference_name && r.m_other_rows[o].first == *r.m_reference_name;
    out += line(lx, ly - 4, lx + 22, ly - 4, "#555", " stroke-dasharray=\"" + dash_of(o, reference) + "\"");
    out += text(lx + 28, ly, r.m_other_rows[o].first + " (timed with the best)");
  }
  out += text(lx, ly + 4, "filled: accepted; hollow: rejected;");
  out += text(lx, ly + 20, "grey: masked; lines: best so far");
  out += text(k_left + plot_w / 2, height - 8, "median time per version and shape (log scale)", "middle", 12);
  return out + "</svg>\n";
}

}  // namespace kopt
