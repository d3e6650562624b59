// Noise-aware comparison of two result sets (`kopt compare`, `kopt perf`).
//
// Per row, change = new median / base median - 1 (with repetitions: the
// median of each side's repetitions). The threshold is the minimum effect
// size: |change| <= threshold is SAME however significant. Beyond it:
//   - both sides with >= k_utest_min_repetitions (9) repetitions: the
//     Mann-Whitney U test (utest.hpp) over the repetitions decides,
//     p < k_utest_alpha (0.05) FASTER (change < 0) / SLOWER, else UNSURE;
//   - otherwise the noise rule: noise = sqrt(noise_base^2 + noise_new^2),
//     each the relative standard error of a median (as the benchmark measured
//     it, or from the spread of the repetitions); |change| > 3 noise FASTER /
//     SLOWER, otherwise (or noise unknown) UNSURE. With 2 to 8 repetitions
//     a side, FASTER / SLOWER also needs the sides apart (every repetition
//     of the slower side slower than every one of the faster), else UNSURE:
//     a spread from so few values is uncertain, and one burst of load can
//     slow most of one side's processes.
// The geomean row uses the geometric mean of the ratios and the noise of a
// mean of logarithms, sqrt(sum noise_i^2) / n; with 2 to 8 repetitions a
// side, the same apart rule over the per-repetition geomeans (when every
// row has as many). Only SLOWER fails a run.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/timing_stats.hpp"
#include "kopt/compare/utest.hpp"

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
  // The verdict uses the median and its noise (with repetitions: their
  // median, and the relative standard error of it from their spread).
  timing_stats m_stats;
  // One value per repetition (Google Benchmark's --benchmark_repetitions, or
  // a benchmark timed in several processes); empty: a single measurement.
  std::vector<double> m_repetitions_ns;
  // The SAME band measured for this reference point (kopt perf's baseline,
  // compare/perf_band.hpp); the row uses max(threshold, band).
  std::optional<double> m_band;

  [[nodiscard]] std::size_t repetitions() const { return m_repetitions_ns.empty() ? 1 : m_repetitions_ns.size(); }
};

// Points with the same impl and shape (the repetitions of one benchmark)
// merged into one: repetitions = every point's median, median = their
// median, noise = the relative standard error of that median from their
// spread (at least the points' own noise / sqrt(n)). Order of first
// appearance is kept.
[[nodiscard]] std::vector<timing_point> merge_repetitions(const std::vector<timing_point>& points);

struct verdict_row {
  std::string m_impl;    // "v1", or "v1 -> v2" when two single-variant sets are compared
  std::string m_shape;   // "geomean" for the summary row
  double m_base_ns = 0;  // geomean row: geometric means
  double m_new_ns = 0;
  double m_change = 0;
  std::optional<double> m_noise;  // combined relative noise
  std::optional<double> m_p_value;  // the U test's, when both sides had enough repetitions
  double m_threshold = 0;  // the SAME band this row used
  std::size_t m_base_repetitions = 1;  // 0 on the geomean row (not applicable)
  std::size_t m_new_repetitions = 1;
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
// The rule with repetitions: SAME within the threshold, then the U test's p.
[[nodiscard]] verdict classify_utest(double change, double p_value, double threshold);

// Rows matched by impl + shape. When the two sets share no implementation
// and each holds exactly one (two records of different variants), rows are
// matched by shape alone.
// geomean_band: the geomean row's band, max'ed with threshold (kopt perf).
[[nodiscard]] compare_result compute_verdicts(const std::vector<timing_point>& base,
                                              const std::vector<timing_point>& next, double threshold,
                                              std::optional<double> geomean_band = std::nullopt);

// A kernelopt.record (its `kind`), KernelOpt's benchmark JSON (its
// `kopt.kind`), or, declaring no kind, plain Google Benchmark JSON
// (inputs/gbench.hpp) or NVBench JSON (inputs/nvbench.hpp); another
// declared kind is a format_error naming the file and the field. Rows that
// failed or were skipped are left out; repetitions are merged
// (merge_repetitions). A folder: every *.json in it, each file one
// repetition of its rows (several processes of one build). Throws format_error.
[[nodiscard]] std::vector<timing_point> load_timing_points(const std::filesystem::path& path);

[[nodiscard]] std::string render_compare_markdown(const compare_result& result, const std::string& base,
                                                  const std::string& next);

}  // namespace kopt
