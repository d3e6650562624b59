#include "kopt/decide/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/format.hpp"

namespace kopt {
namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

double log_spread(const std::vector<double>& values) {
  const std::size_t n = values.size();
  if (n < 2) return 0;
  double mean = 0;
  for (const double v : values) mean += std::log(v);
  mean /= static_cast<double>(n);
  double sq = 0;
  for (const double v : values) sq += (std::log(v) - mean) * (std::log(v) - mean);
  return std::sqrt(sq / static_cast<double>(n - 1));
}

perf_baseline measure_baseline(const record& best, const std::vector<bench_set>& runs,
                               const std::string& created_utc) {
  if (static_cast<std::int64_t>(runs.size()) < k_baseline_min_runs) {
    throw std::runtime_error("a baseline needs at least " + std::to_string(k_baseline_min_runs) +
                             " runs, got " + std::to_string(runs.size()));
  }
  perf_baseline b;
  b.m_kernel = best.m_kernel;
  b.m_variant = best.m_variant;
  b.m_source_sha256 = best.m_source.m_sha256;
  b.m_device = runs.front().m_device;
  b.m_runs = static_cast<std::int64_t>(runs.size());
  b.m_quick = runs.front().m_quick.value_or(false);
  b.m_created_utc = created_utc;
  for (const bench_set& run : runs) {
    if (run.m_device != b.m_device) {
      throw std::runtime_error(run.m_file + " was timed on " + run.m_device + ", " + runs.front().m_file + " on " +
                               b.m_device + ": a baseline is for one device model");
    }
    if (run.m_gpu && run.m_gpu->m_uuid &&
        std::find(b.m_gpus.begin(), b.m_gpus.end(), *run.m_gpu->m_uuid) == b.m_gpus.end()) {
      b.m_gpus.push_back(*run.m_gpu->m_uuid);
    }
  }
  std::vector<std::vector<double>> per_run_medians(runs.size());
  for (const shape_timing& recorded : best.m_timing.m_shapes) {
    baseline_shape shape;
    shape.m_shape = recorded.m_shape.text();
    std::vector<double> noises;
    bool in_first = runs.front().find(best.m_variant, recorded.m_shape.text()) != nullptr;
    if (!in_first) continue;  // a quick run measures the quick shapes only
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const bench_row* row = runs[i].find(best.m_variant, recorded.m_shape.text());
      if (row == nullptr || row->m_error) {
        throw std::runtime_error(runs[i].m_file + ": " + best.m_variant + " " + recorded.m_shape.text() + " " +
                                 (row == nullptr ? "was not measured" : "failed: " + *row->m_error));
      }
      shape.m_run_medians_ns.push_back(row->m_stats.m_median_ns);
      per_run_medians[i].push_back(row->m_stats.m_median_ns);
      if (row->m_stats.m_noise) noises.push_back(*row->m_stats.m_noise);
    }
    shape.m_median_ns = median_of(shape.m_run_medians_ns);
    shape.m_spread = log_spread(shape.m_run_medians_ns);
    if (!noises.empty()) shape.m_within_noise = median_of(noises);
    b.m_shapes.push_back(shape);
  }
  if (b.m_shapes.empty()) {
    throw std::runtime_error(runs.front().m_file + ": none of the shapes of " + best.m_variant +
                             "'s record was measured");
  }
  for (const std::vector<double>& medians : per_run_medians) {
    b.m_run_geomeans_ns.push_back(geometric_mean(medians).value_or(0));
  }
  b.m_geomean_spread = log_spread(b.m_run_geomeans_ns);
  return b;
}

}  // namespace kopt
