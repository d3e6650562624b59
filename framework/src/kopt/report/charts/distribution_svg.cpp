// The spread chart: per shape, the best's p10-p90 range with its median,
// and the baselines' (else the reference's) median; every median with its
// noise (relative standard error) as a whisker. Times relative to the
// best's median at that shape, so that shapes of any size share one axis.
#include <algorithm>
#include <cmath>

#include "core/format.hpp"
#include "kopt/report/report_model.hpp"
#include "kopt/report/charts/svg.hpp"

namespace kopt {
namespace {

constexpr double k_width = 900;
constexpr double k_left = 300;  // "shape · impl" labels
constexpr double k_right = 30;
constexpr double k_top = 20;
constexpr double k_row = 22;
constexpr double k_bottom = 70;

// Ticks for a ratio axis: a linear step when it spans less than 3x.
std::vector<double> ratio_ticks(double lo, double hi) {
  if (hi / lo >= 3) return svg::log_ticks(lo, hi);
  for (const double step : {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5}) {
    if ((hi - lo) / step > 8) continue;
    std::vector<double> ticks;
    for (double t = std::ceil(lo / step) * step; t <= hi; t += step) ticks.push_back(t);
    if (ticks.size() >= 2) return ticks;
  }
  return {lo, hi};
}

}  // namespace

std::string render_distribution_svg(const report_model& r) {
  using namespace svg;
  const std::vector<distribution_row>& rows = r.m_distribution;
  const double height = k_top + k_row * static_cast<double>(std::max<std::size_t>(rows.size(), 1)) + k_bottom;
  std::string out = open("distribution-chart", r.m_kernel + ": spread of the best and the baselines", k_width, height);
  const double plot_w = k_width - k_left - k_right;
  const double plot_h = height - k_top - k_bottom;
  out += "<rect x=\"" + num(k_left) + "\" y=\"" + num(k_top) + "\" width=\"" + num(plot_w) + "\" height=\"" +
         num(plot_h) + "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
  if (rows.empty()) {
    out += text(k_left + plot_w / 2, k_top + plot_h / 2, "no accepted version yet", "middle", 13);
    return out + "</svg>\n";
  }
  // Each row's times over its shape's best median.
  auto best_median = [&](const std::string& shape) {
    for (const distribution_row& row : rows)
      if (row.m_shape == shape && row.m_role == "best") return row.m_median_ns;
    return 1.0;
  };
  double lo = 1e300, hi = 0;
  for (const distribution_row& row : rows) {
    const double base = best_median(row.m_shape);
    const double noise = row.m_noise.value_or(0);
    lo = std::min({lo, row.m_p10_ns.value_or(row.m_median_ns) / base, row.m_median_ns * (1 - noise) / base});
    hi = std::max({hi, row.m_p90_ns.value_or(row.m_median_ns) / base, row.m_median_ns * (1 + noise) / base});
  }
  const double pad = std::max(hi / lo, 1.01);
  lo /= std::pow(pad, 0.08);
  hi *= std::pow(pad, 0.08);
  auto x_of = [&](double ratio) { return k_left + plot_w * std::log(ratio / lo) / std::log(hi / lo); };
  for (const double tick : ratio_ticks(lo, hi)) {
    out += line(x_of(tick), k_top, x_of(tick), k_top + plot_h, tick == 1.0 ? "#888" : "#e0e0e0");
    out += text(x_of(tick), k_top + plot_h + 16, format_number(tick, 3) + "x", "middle", 10);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const distribution_row& row = rows[i];
    const auto at = std::find(r.m_shapes.begin(), r.m_shapes.end(), row.m_shape);
    const std::string color = shape_color(static_cast<std::size_t>(at - r.m_shapes.begin()));
    const double base = best_median(row.m_shape);
    const double y = k_top + k_row * (static_cast<double>(i) + 0.5);
    out += text(k_left - 8, y + 4, row.m_shape + " · " + row.m_impl + (row.m_role == row.m_impl ? "" : " (" + row.m_role + ")"), "end");
    std::string tip = row.m_impl + " at " + row.m_shape + ": median " + format_time_ns(row.m_median_ns);
    if (row.m_p10_ns && row.m_p90_ns) {
      tip += ", p10 " + format_time_ns(row.m_p10_ns) + ", p90 " + format_time_ns(row.m_p90_ns);
      const double x1 = x_of(*row.m_p10_ns / base);
      const double x2 = x_of(*row.m_p90_ns / base);
      out += "<rect class=\"p10-p90\" x=\"" + num(x1) + "\" y=\"" + num(y - 6) + "\" width=\"" +
             num(std::max(x2 - x1, 1.0)) + "\" height=\"12\" fill=\"" + color + "\" fill-opacity=\"0.25\" stroke=\"" +
             color + "\"/>\n";
    }
    if (row.m_noise) {
      tip += ", noise " + format_noise(row.m_noise);
      const double x1 = x_of(row.m_median_ns * (1 - *row.m_noise) / base);
      const double x2 = x_of(row.m_median_ns * (1 + *row.m_noise) / base);
      out += line(x1, y, x2, y, "#333", " class=\"noise\"");
      out += line(x1, y - 4, x1, y + 4, "#333") + line(x2, y - 4, x2, y + 4, "#333");
    }
    if (row.m_samples > 0) tip += ", " + std::to_string(row.m_samples) + " samples";
    const double xm = x_of(row.m_median_ns / base);
    out += "<rect class=\"median\" x=\"" + num(xm - 1.5) + "\" y=\"" + num(y - 8) + "\" width=\"3\" height=\"16\" fill=\"" +
           (row.m_role == "best" ? color : std::string("#333")) + "\"><title>" + html_escape(tip) +
           "</title></rect>\n";
  }
  out += text(k_left + plot_w / 2, height - 38, "time relative to the best's median at the shape (log scale)",
              "middle", 12);
  out += text(k_left + plot_w / 2, height - 22,
              "box: the best's p10-p90 of its samples; bar: median; whisker: median +- noise (standard error)",
              "middle", 11);
  out += text(k_left + plot_w / 2, height - 8,
              "the record keeps only median and noise of the baselines and reference: no box for them", "middle", 11);
  return out + "</svg>\n";
}

}  // namespace kopt
