#include "bench/result.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kopt::bench {
namespace {

bench_row identity(const kernel_spec& spec, const impl_spec& impl, const shape_spec& shape) {
  bench_row row;
  row.m_kernel = spec.m_name;
  row.m_impl = impl.m_name;
  row.m_role = role_name(impl.m_role);
  row.m_shape = shape.m_text;
  for (std::size_t i = 0; i < spec.m_dims.size() && i < shape.m_dims.size(); ++i) {
    row.m_dims.emplace_back(spec.m_dims[i], shape.m_dims[i]);
  }
  return row;
}

std::optional<double> finite(double value) {
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

const char* role_name(impl_role role) {
  switch (role) {
    case impl_role::variant: return "variant";
    case impl_role::reference: return "reference";
    case impl_role::baseline: return "baseline";
  }
  return "variant";
}

rates compute_rates(double flops, double bytes, double median_ns, const ceilings_file* limits) {
  rates r;
  r.m_flops = flops;
  r.m_bytes = bytes;
  if (!(median_ns > 0)) return r;
  const double seconds = median_ns * 1e-9;
  if (flops > 0) r.m_tflops = flops / seconds / 1e12;
  if (bytes > 0) r.m_gbps = bytes / seconds / 1e9;
  if (limits != nullptr) {
    const auto rate = [&](double work) { return work > 0 ? std::optional<double>(work / seconds) : std::nullopt; };
    r.m_fractions = fractions_of_ceilings(*limits, rate(flops), rate(bytes));
  }
  return r;
}

timing_stats timing_stats_of(const sample_stats& s) {
  timing_stats t;
  t.m_median_ns = s.m_median;
  t.m_p10_ns = finite(s.m_p10);
  t.m_p90_ns = finite(s.m_p90);
  t.m_cv = finite(s.m_cv);
  t.m_noise = finite(s.m_noise);
  t.m_samples = static_cast<std::int64_t>(s.m_count);
  return t;
}

std::vector<std::string> result_flags(const measurement& m, double max_noise) {
  std::vector<std::string> flags = m.m_flags;
  if (!(m.m_primary.m_stats.m_noise <= max_noise)) flags.emplace_back("noise_above_bound");
  return flags;
}

constexpr std::size_t k_max_stored_samples = 1000;

bench_row timed_row(const kernel_spec& spec, const impl_spec& impl, const shape_spec& shape, const measurement& m,
                    const rates& r, double max_noise) {
  const sample_stats& s = m.m_primary.m_stats;
  bench_row row = identity(spec, impl, shape);
  row.m_stats = timing_stats_of(s);
  row.m_mean_ns = finite(s.m_mean);
  row.m_min_ns = finite(s.m_min);
  row.m_max_ns = finite(s.m_max);
  row.m_total_time_s = finite(s.m_total * 1e-9);
  row.m_stop_reason = m.m_primary.m_stop.m_reason;
  // Short kernels take tens of thousands of samples; the file keeps an
  // evenly strided subset (the statistics above use all of them).
  const std::vector<double>& all = m.m_primary.m_samples;
  const std::size_t stride = all.size() > k_max_stored_samples
                                 ? (all.size() + k_max_stored_samples - 1) / k_max_stored_samples
                                 : 1;
  for (std::size_t i = 0; i < all.size(); i += stride) row.m_samples_ns.push_back(all[i]);
  row.m_samples_ns_stride = static_cast<std::int64_t>(stride);
  if (r.m_flops > 0) row.m_flops = r.m_flops;
  if (r.m_bytes > 0) row.m_bytes = r.m_bytes;
  row.m_tflops = r.m_tflops;
  row.m_gbps = r.m_gbps;
  row.m_pct_of_ceiling = r.m_fractions;
  row.m_second_clock = m.m_second_clock;
  row.m_clock = m.m_clock;
  row.m_flags = result_flags(m, max_noise);
  return row;
}

bench_row profiled_row(const kernel_spec& spec, const impl_spec& impl, const shape_spec& shape) {
  bench_row row = identity(spec, impl, shape);
  row.m_profiled = true;
  return row;
}

bench_row failed_row(const kernel_spec& spec, const impl_spec& impl, const shape_spec& shape,
                     const std::string& error) {
  bench_row row = identity(spec, impl, shape);
  row.m_error = error;
  return row;
}

overhead_summary summarize_overhead(const std::vector<overhead_entry>& entries) {
  const auto finite = [](double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; };
  std::vector<double> harness;
  std::vector<double> second;
  overhead_summary o;
  for (const overhead_entry& e : entries) {
    harness.push_back(e.m_harness_ns_per_sample);
    if (e.m_second_clock_cost_ns) second.push_back(*e.m_second_clock_cost_ns);
    const overhead_values v{finite(e.m_harness_ns_per_sample),
                            e.m_second_clock_cost_ns ? finite(*e.m_second_clock_cost_ns) : std::nullopt};
    // One entry per name, the last one's values (as a JSON object keeps them).
    const auto same = std::find_if(o.m_per_benchmark.begin(), o.m_per_benchmark.end(),
                                   [&](const auto& p) { return p.first == e.m_benchmark; });
    if (same != o.m_per_benchmark.end()) {
      same->second = v;
    } else {
      o.m_per_benchmark.emplace_back(e.m_benchmark, v);
    }
  }
  if (!harness.empty()) o.m_median.m_harness_ns_per_sample = finite(median_of(harness));
  if (!second.empty()) o.m_median.m_cupti_ns_per_launch = finite(median_of(second));
  o.m_benchmarks = static_cast<std::int64_t>(entries.size());
  return o;
}

std::string overhead_text(const std::vector<overhead_entry>& entries) {
  std::vector<double> harness;
  std::vector<double> second;
  for (const overhead_entry& e : entries) {
    harness.push_back(e.m_harness_ns_per_sample);
    if (e.m_second_clock_cost_ns) second.push_back(*e.m_second_clock_cost_ns);
  }
  if (harness.empty()) return {};
  char text[256];
  std::snprintf(text, sizeof text, "kopt: harness time per sample (wall minus device): %.1f us", median_of(harness) * 1e-3);
  std::string line = text;
  if (!second.empty()) {
    std::snprintf(text, sizeof text, "; CUPTI second clock adds %.0f ns per launch", median_of(second));
    line += text;
  }
  std::snprintf(text, sizeof text, " (medians over %zu benchmarks)", entries.size());
  return line + text;
}

}  // namespace kopt::bench
