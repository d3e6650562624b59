// Number and text formatting shared by the renderers and the console output.
// Formatting only: nothing here decides anything.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kopt {

// "41.2 µs", "3.10 ms", "950 ns" (3 significant digits); "unknown" for nullopt.
[[nodiscard]] std::string format_time_ns(std::optional<double> ns);
// 1.234 -> "1.23x"
[[nodiscard]] std::string format_speedup(std::optional<double> ratio);
// 0.0312 -> "+3.1%"; `signed_` adds '+' to positive values.
[[nodiscard]] std::string format_percent(std::optional<double> fraction, bool signed_ = false);
// A value already in percent: 12.34 -> "12.3%".
[[nodiscard]] std::string format_percent_points(double percent);
// %.{digits}g
[[nodiscard]] std::string format_number(std::optional<double> value, int digits = 4);

[[nodiscard]] std::string join(const std::vector<std::string>& parts, const std::string& separator);

// Exponential of the mean logarithm; nullopt for an empty list or a value <= 0.
[[nodiscard]] std::optional<double> geometric_mean(const std::vector<double>& values);

}  // namespace kopt
