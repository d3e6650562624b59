#include "formats/timing_stats.hpp"

namespace kopt {
namespace {

std::optional<double> optional_positive(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_positive();
}

std::optional<double> optional_non_negative(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_non_negative();
}

}  // namespace

void add_to_json(const timing_stats& stats, json& row) {
  row["median_ns"] = stats.m_median_ns;
  row["p10_ns"] = number_or_null(stats.m_p10_ns);
  row["p90_ns"] = number_or_null(stats.m_p90_ns);
  row["cv"] = number_or_null(stats.m_cv);
  row["noise"] = number_or_null(stats.m_noise);
  row["samples"] = stats.m_samples;
}

timing_stats timing_stats_from_json(const json_reader& row) {
  timing_stats stats;
  stats.m_median_ns = row.at("median_ns").as_positive();
  stats.m_p10_ns = optional_positive(row, "p10_ns");
  stats.m_p90_ns = optional_positive(row, "p90_ns");
  stats.m_cv = optional_non_negative(row, "cv");
  stats.m_noise = optional_non_negative(row, "noise");
  stats.m_samples = row.at("samples").as_count();
  return stats;
}

format_table timing_stats_table() {
  return {"timing statistics",
          {{"median_ns", "number", "median of the samples, ns (> 0): the headline time"},
           {"p10_ns", "number | null", "10th percentile of the samples, ns"},
           {"p90_ns", "number | null", "90th percentile of the samples, ns"},
           {"cv", "number | null", "standard deviation / mean of the samples"},
           {"noise", "number | null", "relative standard error of the median; `null` with fewer than 2 samples"},
           {"samples", "integer", "samples taken (>= 1), warm-up excluded"}}};
}

}  // namespace kopt
