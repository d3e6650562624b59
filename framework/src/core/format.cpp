#include "core/format.hpp"

#include <cmath>
#include <cstdio>

namespace kopt {

std::string format_number(std::optional<double> value, int digits) {
  if (!value) return "unknown";
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, *value);
  return text;
}

std::string format_time_ns(std::optional<double> ns) {
  if (!ns) return "unknown";
  const double v = *ns;
  if (v >= 1e9) return format_number(v / 1e9, 3) + " s";
  if (v >= 1e6) return format_number(v / 1e6, 3) + " ms";
  if (v >= 1e3) return format_number(v / 1e3, 3) + " µs";
  return format_number(v, 3) + " ns";
}

std::string format_speedup(std::optional<double> ratio) {
  if (!ratio) return "unknown";
  char text[64];
  std::snprintf(text, sizeof text, "%.2fx", *ratio);
  return text;
}

std::string format_percent(std::optional<double> fraction, bool signed_) {
  if (!fraction) return "unknown";
  char text[64];
  std::snprintf(text, sizeof text, signed_ ? "%+.1f%%" : "%.1f%%", *fraction * 100.0);
  return text;
}

std::string format_percent_points(double percent) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f%%", percent);
  return text;
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i != 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::optional<double> geometric_mean(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  double sum = 0;
  for (const double v : values) {
    if (!(v > 0) || !std::isfinite(v)) return std::nullopt;
    sum += std::log(v);
  }
  return std::exp(sum / static_cast<double>(values.size()));
}

}  // namespace kopt
