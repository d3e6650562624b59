// What the report's SVG charts share: number text, axes' ticks, the colour
// of a shape (the same in every chart) and the chart's frame.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kopt/report/html.hpp"

namespace kopt::svg {

[[nodiscard]] inline std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

// The ticks of a log axis over [lo, hi]: 1, 2 and 5 times the powers of
// ten, or every integer multiple when that gives fewer than three.
[[nodiscard]] inline std::vector<double> log_ticks(double lo, double hi) {
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

// The colour of the i-th report shape (Okabe-Ito, distinguishable with
// colour-blindness), cycling.
[[nodiscard]] inline std::string shape_color(std::size_t i) {
  static const char* const colors[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                       "#e69f00", "#56b4e9", "#000000", "#999933"};
  return colors[i % (sizeof colors / sizeof colors[0])];
}

// 1.23e14 -> "123 T": the value with an SI prefix, 3 significant digits.
[[nodiscard]] inline std::string si(double value) {
  static const char* const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int index = 0;
  while (std::fabs(value) >= 1000 && index < 6) {
    value /= 1000;
    ++index;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %s", value, prefixes[index]);
  return text;
}

[[nodiscard]] inline std::string open(const std::string& id, const std::string& title, double width, double height) {
  return "<svg id=\"" + id + "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" +
         num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) + "\" role=\"img\" aria-labelledby=\"" +
         id + "-title\">\n<title id=\"" + id + "-title\">" + html_escape(title) + "</title>\n";
}

[[nodiscard]] inline std::string text(double x, double y, const std::string& body, const char* anchor = "start",
                                      int size = 11, const std::string& extra = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\" font-size=\"" +
         std::to_string(size) + "\"" + extra + ">" + html_escape(body) + "</text>\n";
}

[[nodiscard]] inline std::string line(double x1, double y1, double x2, double y2, const std::string& stroke,
                                      const std::string& extra = "") {
  return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) +
         "\" stroke=\"" + stroke + "\"" + extra + "/>\n";
}

}  // namespace kopt::svg
