#include "kopt/inputs/nvbench.hpp"

#include <cmath>
#include <cstdlib>

namespace kopt {
namespace {

// NVBench writes every number as a string (int64 would lose precision as a
// JSON double); "inf" where it has no estimate.
std::optional<double> summary_value(const json_reader& summaries, const std::string& tag) {
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    const json_reader summary = summaries.at(i);
    if (summary.at("tag").as_string() != tag) continue;
    const json_reader data = summary.at("data");
    for (std::size_t j = 0; j < data.size(); ++j) {
      const json_reader value = data.at(j);
      if (value.at("name").as_string() != "value") continue;
      const json_reader v = value.at("value");
      if (v.raw().is_number()) return v.as_number();
      const std::string text = v.as_string();
      char* end = nullptr;
      const double parsed = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0') v.fail("\"" + shorten(text) + "\" is not a number");
      if (!std::isfinite(parsed)) return std::nullopt;  // NVBench's "no estimate"
      return parsed;
    }
    summary.at("data").fail("no value named \"value\"");
  }
  return std::nullopt;
}

}  // namespace

bool is_nvbench_json(const json& doc) {
  if (!doc.is_object()) return false;
  const auto benchmarks = doc.find("benchmarks");
  if (benchmarks == doc.end() || !benchmarks->is_array() || benchmarks->empty()) return false;
  const json& first = (*benchmarks)[0];
  return first.is_object() && first.contains("states");
}

std::vector<timing_series> read_nvbench_series(const json& doc, const std::string& file) {
  const json_reader root(doc, file);
  const json_reader benchmarks = root.at("benchmarks");
  std::vector<timing_series> out;
  for (std::size_t b = 0; b < benchmarks.size(); ++b) {
    const json_reader bench = benchmarks.at(b);
    const std::string name = bench.at("name").as_string();
    const json_reader states = bench.at("states");
    for (std::size_t s = 0; s < states.size(); ++s) {
      const json_reader state = states.at(s);
      timing_series series;
      series.m_impl = name;
      series.m_shape = state.at("name").as_string();
      if (state.has("is_skipped") && state.at("is_skipped").as_bool()) {
        series.m_error = "skipped: " + (state.has("skip_reason") ? state.at("skip_reason").as_string() : "no reason");
        out.push_back(series);
        continue;
      }
      const json_reader summaries = state.at("summaries");
      const std::optional<double> median = summary_value(summaries, "nv/cold/time/gpu/median");
      const std::optional<double> mean = summary_value(summaries, "nv/cold/time/gpu/mean");
      const std::optional<double> center = median ? median : mean;
      if (!center || !(*center > 0)) {
        series.m_error = "no nv/cold/time/gpu/mean (or median) summary with a time > 0";
        out.push_back(series);
        continue;
      }
      series.m_center_ns = *center * 1e9;
      const std::optional<double> relative = summary_value(summaries, "nv/cold/time/gpu/stdev/relative");
      const std::optional<double> samples = summary_value(summaries, "nv/cold/sample_size");
      if (relative && samples && *samples >= 2) {
        series.m_noise = (median ? 1.2533 : 1.0) * *relative / std::sqrt(*samples);
      }
      out.push_back(series);
    }
  }
  return out;
}

}  // namespace kopt
