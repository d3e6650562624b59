#include "kopt/inputs/gbench.hpp"

#include <algorithm>
#include <cmath>

namespace kopt {
namespace {

bool is_run_option(const std::string& part) {
  for (const char* prefix : {"iterations:", "repeats:", "min_time:", "min_warmup_time:"}) {
    if (part.rfind(prefix, 0) == 0) return true;
  }
  return part == "manual_time" || part == "real_time" || part == "process_time";
}

double to_ns(const json_reader& entry) {
  const double value = entry.at("real_time").as_non_negative();
  const std::string unit = entry.has("time_unit") ? entry.at("time_unit").as_string() : "ns";
  double scale = 0;
  if (unit == "ns") scale = 1;
  if (unit == "us") scale = 1e3;
  if (unit == "ms") scale = 1e6;
  if (unit == "s") scale = 1e9;
  if (scale == 0) entry.at("time_unit").fail("unknown time_unit \"" + shorten(unit) + "\"");
  const double ns = value * scale;
  if (!std::isfinite(ns)) entry.at("real_time").fail("beyond the range of a double in ns");
  return ns;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

gbench_name split_gbench_name(const std::string& name) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = name.find('/', start);
    parts.push_back(name.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  while (parts.size() > 1 && is_run_option(parts.back())) parts.pop_back();
  if (parts.size() >= 3 && parts[2].find('=') != std::string::npos) return {parts[1], parts[2]};
  gbench_name out{parts[0], ""};
  for (std::size_t i = 1; i < parts.size(); ++i) out.m_shape += (i > 1 ? "/" : "") + parts[i];
  return out;
}

std::vector<timing_series> read_gbench_series(const json& doc, const std::string& file) {
  const json_reader root(doc, file);
  const json_reader benchmarks = root.at("benchmarks");
  std::vector<timing_series> out;
  // Aggregates of one benchmark, applied once all its entries are read.
  struct aggregates {
    std::optional<double> m_median, m_mean, m_stddev;
    std::optional<std::int64_t> m_count;
  };
  std::vector<aggregates> aggs;
  auto series_for = [&](const gbench_name& n) -> std::size_t {
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (out[i].m_impl == n.m_impl && out[i].m_shape == n.m_shape) return i;
    }
    out.push_back({n.m_impl, n.m_shape, std::nullopt, {}, std::nullopt, std::nullopt});
    aggs.emplace_back();
    return out.size() - 1;
  };
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const json_reader entry = benchmarks.at(i);
    // run_name is the name without the aggregate's suffix ("_median").
    const std::string name = entry.has("run_name") ? entry.at("run_name").as_string() : entry.at("name").as_string();
    const bool aggregate = entry.has("run_type") && entry.at("run_type").as_string() == "aggregate";
    std::string aggregate_name = aggregate && entry.has("aggregate_name") ? entry.at("aggregate_name").as_string() : "";
    std::string base_name = name;
    if (aggregate && !entry.has("run_name")) {
      // Older files: "BM_x/8_median" without run_name.
      const std::size_t underscore = name.rfind('_');
      if (underscore != std::string::npos) {
        if (aggregate_name.empty()) aggregate_name = name.substr(underscore + 1);
        base_name = name.substr(0, underscore);
      }
    }
    const std::size_t index = series_for(split_gbench_name(base_name));
    timing_series& s = out[index];
    if (entry.has("error_occurred") && entry.at("error_occurred").as_bool()) {
      s.m_error = entry.has("error_message") ? entry.at("error_message").as_string() : "error";
      continue;
    }
    if (!aggregate) {
      s.m_repetitions_ns.push_back(to_ns(entry));
      continue;
    }
    // cv is a ratio, not a time; other (user) aggregates are not used.
    if (aggregate_name == "median") aggs[index].m_median = to_ns(entry);
    if (aggregate_name == "mean") aggs[index].m_mean = to_ns(entry);
    if (aggregate_name == "stddev") aggs[index].m_stddev = to_ns(entry);
    if (entry.has("repetitions")) aggs[index].m_count = entry.at("repetitions").as_count();
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    timing_series& s = out[i];
    if (s.m_error) continue;
    const aggregates& a = aggs[i];
    if (!s.m_repetitions_ns.empty()) {
      s.m_center_ns = median_of(s.m_repetitions_ns);
    } else if (a.m_median || a.m_mean) {
      s.m_center_ns = a.m_median ? a.m_median : a.m_mean;
      // Standard error of a median from the stddev of n repetitions (1.2533 =
      // sqrt(pi/2), the median's efficiency under a normal distribution).
      if (a.m_stddev && a.m_count && *a.m_count >= 2 && *s.m_center_ns > 0) {
        s.m_noise = (a.m_median ? 1.2533 : 1.0) * *a.m_stddev / *s.m_center_ns /
                    std::sqrt(static_cast<double>(*a.m_count));
      }
    } else {
      s.m_error = "no time: neither a repetition nor a median or mean aggregate";
    }
    if (s.m_center_ns && !(*s.m_center_ns > 0)) s.m_error = "a time of 0 ns";
  }
  return out;
}

}  // namespace kopt
