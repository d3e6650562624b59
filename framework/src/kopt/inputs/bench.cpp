#include "kopt/inputs/bench.hpp"

#include <algorithm>
#include <cmath>

namespace kopt {
namespace {

// Optional values: null or absent is "not defined"; present, they must be in range.
std::optional<double> optional_positive(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_positive();
}

std::optional<double> optional_non_negative(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_non_negative();
}

double to_ns(double value, const std::string& unit, const json_reader& where) {
  if (unit == "ns") return value;
  if (unit == "us") return value * 1e3;
  if (unit == "ms") return value * 1e6;
  if (unit == "s") return value * 1e9;
  where.fail("unknown time_unit \"" + shorten(unit) + "\"");
}

bench_row read_kopt_row(const json_reader& entry) {
  const json_reader k = entry.at("kopt");
  bench_row row;
  row.m_impl = k.at("impl").as_string();
  row.m_role = k.at("role").as_string();
  row.m_shape = k.at("shape").as_string();
  if (k.has("output_check")) {
    const json_reader check = k.at("output_check");
    row.m_output_check = check.at("status").as_string();
    if (row.m_output_check != "pass" && row.m_output_check != "fail" && row.m_output_check != "unavailable") {
      check.at("status").fail("expected \"pass\", \"fail\" or \"unavailable\"");
    }
    if (check.has("detail")) row.m_output_detail = check.at("detail").as_string();
    if (check.has("reason")) row.m_output_detail = check.at("reason").as_string();
  }
  if (entry.has("error_occurred") && entry.at("error_occurred").as_bool()) {
    row.m_error = entry.has("error_message") ? entry.at("error_message").as_string() : "error";
    return row;
  }
  if (k.has("error")) {
    row.m_error = k.at("error").as_string();
    return row;
  }
  if (!k.has("median_ns")) {
    row.m_error = "no median (median_ns is null)";
    return row;
  }
  row.m_stats = timing_stats_from_json(k);
  for (const char* key : {"mean_ns", "min_ns", "max_ns"}) (void)optional_positive(k, key);  // checked, not kept
  row.m_tflops = optional_non_negative(k, "tflops");
  row.m_gbps = optional_non_negative(k, "gbps");
  row.m_flops = optional_non_negative(k, "flops");
  row.m_bytes = optional_non_negative(k, "bytes");
  if (k.has("pct_of_ceiling")) row.m_pct_of_ceiling = fractions_from_json(k.at("pct_of_ceiling"));
  if (k.has("second_clock")) row.m_second_clock = k.at("second_clock").raw();
  if (k.has("clock")) row.m_clock = k.at("clock").raw();
  if (k.has("flags")) {
    const json_reader flags = k.at("flags");
    for (std::size_t i = 0; i < flags.size(); ++i) row.m_flags.push_back(flags.at(i).as_string());
  }
  if (k.has("stop_reason")) row.m_stop_reason = k.at("stop_reason").as_string();
  if (k.has("rounds")) {
    const json_reader rounds = k.at("rounds");
    const json_reader medians = rounds.at("medians_ns");
    for (std::size_t i = 0; i < medians.size(); ++i) {
      const double median = medians.at(i).as_number();
      if (!(median > 0)) medians.at(i).fail("a round's median must be > 0");
      row.m_round_medians.push_back(median);
    }
    const json_reader window = rounds.at("window");
    for (std::size_t i = 0; i < window.size(); ++i) row.m_window.push_back(window.at(i).as_string());
  }
  return row;
}

double median_sorted(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const std::size_t low = static_cast<std::size_t>(position);
  const std::size_t high = std::min(low + 1, sorted.size() - 1);
  return sorted[low] + (position - static_cast<double>(low)) * (sorted[high] - sorted[low]);
}

// Plain Google Benchmark: "<k>/<impl>/<shape>[/iterations:1][/manual_time]".
bench_row read_plain_row(const json_reader& entry) {
  const std::string name = entry.at("name").as_string();
  bench_row row;
  const std::size_t first = name.find('/');
  const std::size_t second = first == std::string::npos ? first : name.find('/', first + 1);
  if (second == std::string::npos) {
    entry.at("name").fail("\"" + shorten(name) + "\" is not <kernel>/<impl>/<shape>");
  }
  row.m_impl = name.substr(first + 1, second - first - 1);
  row.m_shape = name.substr(second + 1, name.find('/', second + 1) - second - 1);
  if (entry.has("error_occurred") && entry.at("error_occurred").as_bool()) {
    row.m_error = entry.has("error_message") ? entry.at("error_message").as_string() : "error";
    return row;
  }
  row.m_stats.m_median_ns =
      to_ns(entry.at("real_time").as_positive(), entry.at("time_unit").as_string(), entry.at("time_unit"));
  if (!std::isfinite(row.m_stats.m_median_ns)) entry.at("real_time").fail("beyond the range of a double in ns");
  row.m_stats.m_samples = entry.has("repetitions") ? entry.at("repetitions").as_count() : 1;
  return row;
}

}  // namespace

std::optional<paired_speedup> pair_rounds(const bench_row& self, const bench_row& other) {
  const std::size_t n = self.m_round_medians.size();
  if (n < 2 || other.m_round_medians.size() != n || self.m_window != other.m_window) return std::nullopt;
  std::vector<double> logs;
  for (std::size_t i = 0; i < n; ++i) logs.push_back(std::log(other.m_round_medians[i] / self.m_round_medians[i]));
  std::sort(logs.begin(), logs.end());
  const double median = median_sorted(logs, 0.5);
  std::vector<double> deviations;
  for (const double x : logs) deviations.push_back(std::fabs(x - median));
  std::sort(deviations.begin(), deviations.end());
  const double mad = median_sorted(deviations, 0.5);
  const double iqr = median_sorted(logs, 0.75) - median_sorted(logs, 0.25);
  // As the bench's median_noise: robust sigma, then the median's standard error.
  const double sigma = std::max(1.4826 * mad, iqr / 1.349);
  paired_speedup p;
  p.m_speedup = std::exp(median);
  p.m_noise = 1.2533 * sigma / std::sqrt(static_cast<double>(n));
  p.m_rounds = n;
  return p;
}

const bench_row* bench_set::find(const std::string& impl, const std::string& shape) const {
  for (const bench_row& row : m_rows) {
    if (row.m_impl == impl && row.m_shape == shape) return &row;
  }
  return nullptr;
}

bool bench_set::has_impl(const std::string& impl) const {
  for (const bench_row& row : m_rows) {
    if (row.m_impl == impl) return true;
  }
  return false;
}

bench_set bench_from_json(const json& doc, const std::string& file) {
  const json_reader root(doc, file);
  bench_set set;
  set.m_file = file;
  if (root.has("kopt")) {
    const json_reader k = root.at("kopt");
    if (k.at("kind").as_string() != "kernelopt.bench") {
      k.at("kind").fail("expected \"kernelopt.bench\", got \"" + shorten(k.at("kind").as_string()) + "\"");
    }
    if (k.at("schema_version").as_integer() > 1) {
      k.at("schema_version").fail("newer than this kopt reads (1): update KernelOpt");
    }
    set.m_kernel = k.at("kernel").as_string();
    if (k.has("mode") && k.at("mode").as_string() != "measure") {
      k.at("mode").fail("\"" + shorten(k.at("mode").as_string()) +
                        "\": this file holds no timing (run without --kopt_profile)");
    }
    if (k.has("shape_set")) set.m_quick = k.at("shape_set").as_string() == "quick";
    if (k.has("device")) set.m_device = k.at("device").as_string();
    if (k.has("gpu")) {
      if (!k.at("gpu").raw().is_object()) k.at("gpu").fail("expected an object (index, uuid, pci_bus_id, ...)");
      set.m_gpu = k.at("gpu").raw();
    }
    if (k.has("timing")) set.m_timing = timing_settings_from_json(k.at("timing"));
  }
  const json_reader benchmarks = root.at("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const json_reader entry = benchmarks.at(i);
    const bool aggregate = entry.has("run_type") && entry.at("run_type").as_string() == "aggregate";
    if (entry.has("kopt")) {
      if (!aggregate) set.m_rows.push_back(read_kopt_row(entry));
      continue;
    }
    // Plain Google Benchmark: with repetitions, the median aggregate stands for the row.
    if (aggregate && !(entry.has("aggregate_name") && entry.at("aggregate_name").as_string() == "median")) {
      continue;
    }
    bench_row row = read_plain_row(entry);
    bench_row* existing = nullptr;
    for (bench_row& r : set.m_rows) {
      if (r.m_impl == row.m_impl && r.m_shape == row.m_shape) existing = &r;
    }
    if (existing == nullptr) {
      set.m_rows.push_back(std::move(row));
    } else if (aggregate) {
      *existing = std::move(row);
    }
  }
  return set;
}

bench_set read_bench(const std::filesystem::path& path) {
  return bench_from_json(read_json_file(path), path.string());
}

}  // namespace kopt
