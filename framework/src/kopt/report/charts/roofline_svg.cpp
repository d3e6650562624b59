// The roofline chart, log-log: the bandwidth roof (bytes/s times FLOP/B),
// the compute roofs, and one dot per version and shape; the best's dots
// filled and named.
#include <algorithm>
#include <cmath>

#include "core/format.hpp"
#include "kopt/report/report_model.hpp"
#include "kopt/report/charts/svg.hpp"

namespace kopt {
namespace {

constexpr double k_width = 900;
constexpr double k_height = 420;
constexpr double k_left = 80;
constexpr double k_right = 230;  // the legend
constexpr double k_top = 20;
constexpr double k_bottom = 50;

}  // namespace

std::string render_roofline_svg(const report_model& r) {
  using namespace svg;
  const roofline_model& model = r.m_roofline;
  std::string out = open("roofline-chart", r.m_kernel + ": roofline (achieved FLOP/s against arithmetic intensity)",
                         k_width, k_height);
  const double plot_w = k_width - k_left - k_right;
  const double plot_h = k_height - k_top - k_bottom;
  out += "<rect x=\"" + num(k_left) + "\" y=\"" + num(k_top) + "\" width=\"" + num(plot_w) + "\" height=\"" +
         num(plot_h) + "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
  if (model.m_dots.empty()) {
    out += text(k_left + plot_w / 2, k_top + plot_h / 2, "no point: no version has FLOPS and BYTES timings", "middle",
                13);
    return out + "</svg>\n";
  }
  double x_lo = 1e300, x_hi = 0, y_lo = 1e300, y_hi = 0;
  for (const roofline_dot& d : model.m_dots) {
    x_lo = std::min(x_lo, d.m_intensity);
    x_hi = std::max(x_hi, d.m_intensity);
    y_lo = std::min(y_lo, d.m_flops_per_s);
    y_hi = std::max(y_hi, d.m_flops_per_s);
  }
  for (const roof& c : model.m_compute) {
    y_hi = std::max(y_hi, c.m_value);
    if (model.m_bandwidth) {
      x_lo = std::min(x_lo, c.m_value / model.m_bandwidth->m_value);
      x_hi = std::max(x_hi, c.m_value / model.m_bandwidth->m_value);
    }
  }
  x_lo /= 4;
  x_hi *= 4;
  y_lo /= 4;
  y_hi *= 2;
  for (const roof& c : model.m_compute) y_lo = std::min(y_lo, c.m_value / 2);
  auto x_of = [&](double i) { return k_left + plot_w * std::log(i / x_lo) / std::log(x_hi / x_lo); };
  auto y_of = [&](double f) { return k_top + plot_h * (1 - std::log(f / y_lo) / std::log(y_hi / y_lo)); };
  for (const double tick : log_ticks(y_lo, y_hi)) {
    out += line(k_left, y_of(tick), k_left + plot_w, y_of(tick), "#e0e0e0");
    out += text(k_left - 6, y_of(tick) + 4, si(tick) + "FLOP/s", "end", 10);
  }
  for (const double tick : log_ticks(x_lo, x_hi)) {
    out += line(x_of(tick), k_top, x_of(tick), k_top + plot_h, "#e0e0e0");
    out += text(x_of(tick), k_top + plot_h + 16, format_number(tick, 6), "middle", 10);
  }
  // The bandwidth roof up to the highest compute roof, inside the plot.
  double bw_from = x_lo;
  double bw_to = x_hi;
  if (model.m_bandwidth) {
    const double bw = model.m_bandwidth->m_value;
    bw_from = std::max(x_lo, y_lo / bw);
    const double ridge = model.m_compute.empty() ? std::min(x_hi, y_hi / bw) : model.m_compute.front().m_value / bw;
    out += "<line class=\"roof bandwidth\" x1=\"" + num(x_of(bw_from)) + "\" y1=\"" + num(y_of(bw_from * bw)) +
           "\" x2=\"" + num(x_of(ridge)) + "\" y2=\"" + num(y_of(ridge * bw)) +
           "\" stroke=\"#333\" stroke-width=\"2\"/>\n";
    bw_to = ridge;
  }
  for (const roof& c : model.m_compute) {
    const double from = model.m_bandwidth ? c.m_value / model.m_bandwidth->m_value : x_lo;
    out += "<line class=\"roof compute\" x1=\"" + num(x_of(from)) + "\" y1=\"" + num(y_of(c.m_value)) + "\" x2=\"" +
           num(x_of(x_hi)) + "\" y2=\"" + num(y_of(c.m_value)) + "\" stroke=\"#333\" stroke-width=\"" +
           (&c == &model.m_compute.front() ? "2" : "1") + "\"/>\n";
    out += text(k_left + plot_w - 4, y_of(c.m_value) - 4,
                c.m_name + " " + si(c.m_value) + "FLOP/s" + (c.m_measured ? "" : " (spec)"), "end", 10);
  }
  if (model.m_bandwidth) {
    const roof& b = *model.m_bandwidth;
    // Under the roof, halfway along it: dots sit on or below it.
    const double at = std::sqrt(bw_from * bw_to);
    out += text(x_of(at) + 4, y_of(at * b.m_value) + 14,
                b.m_name + " " + si(b.m_value) + "B/s" + (b.m_measured ? "" : " (spec)"), "start", 10);
  }
  // Others first, the best on top.
  for (const bool best_pass : {false, true}) {
    for (const roofline_dot& d : model.m_dots) {
      if (d.m_is_best != best_pass) continue;
      const auto at = std::find(r.m_shapes.begin(), r.m_shapes.end(), d.m_shape);
      const std::string color = shape_color(static_cast<std::size_t>(at - r.m_shapes.begin()));
      const double x = x_of(d.m_intensity);
      const double y = y_of(d.m_flops_per_s);
      const std::string tip = "<title>" +
                              html_escape(d.m_impl + " at " + d.m_shape + ": " + si(d.m_flops_per_s) + "FLOP/s at " +
                                          format_number(d.m_intensity, 3) + " FLOP/B (" + d.m_source + ")") +
                              "</title>";
      const std::string fill = d.m_is_best ? color : std::string("white");
      const std::string cls = std::string("dot") + (d.m_is_best ? " best" : "");
      const double size = d.m_is_best ? 6 : 4;
      if (d.m_source == "profile") {
        out += "<circle class=\"" + cls + "\" cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(size) +
               "\" fill=\"" + fill + "\" stroke=\"" + color + "\" stroke-width=\"2\">" + tip + "</circle>\n";
      } else {
        out += "<rect class=\"" + cls + "\" x=\"" + num(x - size) + "\" y=\"" + num(y - size) + "\" width=\"" +
               num(2 * size) + "\" height=\"" + num(2 * size) + "\" fill=\"" + fill + "\" stroke=\"" + color +
               "\" stroke-width=\"2\">" + tip + "</rect>\n";
      }
      if (d.m_is_best) out += text(x + 9, y + 4, d.m_impl, "start", 11, " font-weight=\"600\"");
    }
  }
  const double lx = k_left + plot_w + 16;
  double ly = k_top + 12;
  for (std::size_t s = 0; s < r.m_shapes.size(); ++s, ly += 20) {
    out += "<circle cx=\"" + num(lx + 8) + "\" cy=\"" + num(ly - 4) + "\" r=\"5\" fill=\"" + shape_color(s) + "\"/>\n";
    out += text(lx + 20, ly, r.m_shapes[s]);
  }
  out += text(lx, ly + 4, "filled, named: the best");
  out += text(lx, ly + 20, "hollow: other versions");
  out += text(lx, ly + 36, "circle: profile (ncu's time)");
  out += text(lx, ly + 52, "square: work model (median)");
  out += text(k_left + plot_w / 2, k_height - 8, "arithmetic intensity (FLOP/B, log scale)", "middle", 12);
  return out + "</svg>\n";
}

}  // namespace kopt
