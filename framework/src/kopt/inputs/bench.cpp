#include "kopt/inputs/bench.hpp"

#include <algorithm>
#include <cmath>

namespace kopt {
namespace {

double to_ns(double value, const std::string& unit, const json_reader& where) {
  if (unit == "ns") return value;
  if (unit == "us") return value * 1e3;
  if (unit == "ms") return value * 1e6;
  if (unit == "s") return value * 1e9;
  where.fail("unknown time_unit \"" + shorten(unit) + "\"");
}

double median_sorted(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const std::size_t low = static_cast<std::size_t>(position);
  const std::size_t high = std::min(low + 1, sorted.size() - 1);
  return sorted[low] + (position - static_cast<double>(low)) * (sorted[high] - sorted[low]);
}

// Plain Google Benchmark: "<k>/<impl>/<shape>[/iterations:1][/manual_time]".
// `entry` is the run's place in the file, for messages.
bench_row plain_row(const gbench_run& run, const json_reader& entry) {
  bench_row row;
  const std::size_t first = run.m_name.find('/');
  const std::size_t second = first == std::string::npos ? first : run.m_name.find('/', first + 1);
  if (second == std::string::npos) {
    entry.at("name").fail("\"" + shorten(run.m_name) + "\" is not <kernel>/<impl>/<shape>");
  }
  row.m_impl = run.m_name.substr(first + 1, second - first - 1);
  row.m_shape = run.m_name.substr(second + 1, run.m_name.find('/', second + 1) - second - 1);
  if (run.m_error_message) {
    row.m_error = *run.m_error_message;
    return row;
  }
  // Missing or not > 0: the error names the field.
  if (!(run.m_real_time && *run.m_real_time > 0)) (void)entry.at("real_time").as_positive();
  if (run.m_time_unit.empty()) (void)entry.at("time_unit").as_string();
  row.m_stats.m_median_ns = to_ns(*run.m_real_time, run.m_time_unit, entry.at("time_unit"));
  if (!std::isfinite(row.m_stats.m_median_ns)) entry.at("real_time").fail("beyond the range of a double in ns");
  row.m_stats.m_samples = run.m_repetitions;
  return row;
}

}  // namespace

std::optional<paired_speedup> pair_rounds(const bench_row& self, const bench_row& other) {
  if (!self.m_rounds || !other.m_rounds) return std::nullopt;
  const std::vector<double>& mine = self.m_rounds->m_medians_ns;
  const std::vector<double>& theirs = other.m_rounds->m_medians_ns;
  const std::size_t n = mine.size();
  if (n < 2 || theirs.size() != n || self.m_rounds->m_window != other.m_rounds->m_window) return std::nullopt;
  std::vector<double> logs;
  for (std::size_t i = 0; i < n; ++i) logs.push_back(std::log(theirs[i] / mine[i]));
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
  const bench_result result = bench_result_from_json(root);
  bench_set set;
  set.m_file = file;
  if (result.m_kopt) {
    const bench_header& h = *result.m_kopt;
    if (h.m_mode != "measure") {
      root.at("kopt").at("mode").fail("\"" + shorten(h.m_mode) +
                                      "\": this file holds no timing (run without --kopt_profile)");
    }
    set.m_kernel = h.m_kernel;
    if (!h.m_shape_set.empty()) set.m_quick = h.m_shape_set == "quick";
    set.m_device = h.m_device.value_or("");
    set.m_gpu = h.m_gpu;
    set.m_timing = h.m_timing;
  }
  const json_reader benchmarks = root.at("benchmarks");
  for (std::size_t i = 0; i < result.m_benchmarks.size(); ++i) {
    const bench_entry& entry = result.m_benchmarks[i];
    const bool aggregate = entry.m_run.aggregate();
    if (entry.m_kopt) {
      if (aggregate) continue;  // an aggregate of KernelOpt's runs: their rows stand
      bench_row row = *entry.m_kopt;
      if (entry.m_run.m_error_message) {
        row.m_error = *entry.m_run.m_error_message;
      } else if (row.m_profiled) {
        row.m_error = "not timed (--kopt_profile)";
      }
      set.m_rows.push_back(std::move(row));
      continue;
    }
    // Plain Google Benchmark: with repetitions, the median aggregate stands for the row.
    if (aggregate && entry.m_run.m_aggregate_name != "median") continue;
    bench_row row = plain_row(entry.m_run, benchmarks.at(i));
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
