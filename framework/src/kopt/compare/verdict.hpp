// Noise-aware comparison of two result sets (`kopt compare`, `kopt perf`).
//
// Per row, change = new median / base median - 1 and
// noise = sqrt(noise_base^2 + noise_new^2), each `noise` being the relative
// standard error of a median as the benchmark measured it:
//   |change| <= threshold                        SAME
//   |change| >  threshold and |change| > 3 noise FASTER (change < 0) / SLOWER
//   otherwise (or noise unknown)                 UNSURE
// The geomean row uses the geometric mean of the ratios and the noise of a
// mean of logarithms, sqrt(sum noise_i^2) / n. Only SLOWER fails a run.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/timing_stats.hpp"

namespace kopt {

inline constexpr double k_default_threshold = 0.02;
inline constexpr double k_noise_sigmas = 3.0;

enum class verdict { faster, slower, same, unsure };
[[nodiscard]] const char* to_string(verdict v);
// The inverse of to_string; nullopt for any other text.
[[nodiscard]] std::optional<verdict> verdict_from_string(const std::string& text);

struct timing_point {
  std::string m_impl;
  std::string m_shape;
  timing_stats m_stats;  // the verdict uses the median and its noise
};

struct verdict_row {
  std::string m_impl;    // "v1", or "v1 -> v2" when two single-variant sets are compared
  std::string m_shape;   // "geomean" for the summary row
  double m_base_ns = 0;  // geomean row: geometric means
  double m_new_ns = 0;
  double m_change = 0;
  std::optional<double> m_noise;  // combined relative noise
  verdict m_verdict = verdict::unsure;
};

struct compare_result {
  double m_threshold = k_default_threshold;
  std::vector<verdict_row> m_rows;
  std::optional<verdict_row> m_geomean;
  std::vector<std::string> m_only_base;  // "impl shape"
  std::vector<std::string> m_only_new;

  [[nodiscard]] bool any_slower() const;
};

[[nodiscard]] verdict classify(double change, std::optional<double> noise, double threshold);

// Rows matched by impl + shape. When the two sets share no implementation
// and each holds exactly one (two records of different variants), rows are
// matched by shape alone.
[[nodiscard]] compare_result compute_verdicts(const std::vector<timing_point>& base,
                                              const std::vector<timing_point>& next, double threshold);

// A benchmark JSON file or a kernelopt.record. Throws format_error.
[[nodiscard]] std::vector<timing_point> load_timing_points(const std::filesystem::path& path);

[[nodiscard]] std::string render_compare_markdown(const compare_result& result, const std::string& base,
                                                  const std::string& next);

}  // namespace kopt
