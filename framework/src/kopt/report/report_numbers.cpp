// The per-shape numbers: every version's time, rates, % of ceiling, noise
// and speedup vs each baseline, with the reference and baselines from the
// best's benchmark file; and the spread of the best and the baselines.
#include <algorithm>
#include <cstdio>

#include "kopt/report/report_model.hpp"

namespace kopt {
namespace {

// The roofline's fraction of attainable at the work model's intensity is
// the larger of the bandwidth and compute fractions (attainable = min(C, I*B)).
void set_pct(const ceiling_fractions& pct, const std::optional<std::string>& compute, shape_row& row) {
  std::vector<std::string> names;
  names.push_back(pct.count("copy_bandwidth") != 0 ? "copy_bandwidth" : "dram_bandwidth");
  if (compute) names.push_back(*compute);
  for (const std::string& name : names) {
    const auto it = pct.find(name);
    if (it == pct.end()) continue;
    const double value = it->second;
    if (!row.m_pct_of_ceiling || value > *row.m_pct_of_ceiling) {
      row.m_pct_of_ceiling = value;
      row.m_ceiling = name;
    }
  }
}

shape_row version_row(const report_version& v, const shape_timing& s, const std::vector<std::string>& baselines,
                      const std::optional<std::string>& compute) {
  shape_row row;
  row.m_impl = v.m_variant;
  row.m_role = "variant";
  row.m_decision = v.m_decision;
  row.m_is_best = v.m_is_best;
  row.m_error = s.m_error;
  if (s.m_error) return row;
  row.m_median_ns = s.m_stats.m_median_ns;
  row.m_p10_ns = s.m_stats.m_p10_ns;
  row.m_p90_ns = s.m_stats.m_p90_ns;
  row.m_noise = s.m_stats.m_noise;
  row.m_tflops = s.m_tflops;
  row.m_gbps = s.m_gbps;
  if (s.m_pct_of_ceiling) set_pct(*s.m_pct_of_ceiling, compute, row);
  for (const std::string& name : baselines) {
    std::optional<double> value;
    for (const auto& [baseline, speedup] : s.m_speedup_vs_baselines)
      if (baseline == name) value = speedup;
    row.m_vs_baselines.push_back(value);
  }
  row.m_flags = s.m_flags;
  return row;
}

// Timed beside `best` in its benchmark file: the same work, so the rates
// scale with the time ratio.
shape_row other_row(const measured_impl& other, const shape_timing& best, const std::vector<std::string>& baselines,
                    const std::optional<std::string>& compute) {
  shape_row row;
  row.m_impl = other.m_impl;
  row.m_role = other.m_role;
  row.m_median_ns = other.m_median_ns;
  row.m_noise = other.m_noise;
  const double scale = best.m_stats.m_median_ns / other.m_median_ns;
  if (best.m_tflops) row.m_tflops = *best.m_tflops * scale;
  if (best.m_gbps) row.m_gbps = *best.m_gbps * scale;
  if (best.m_pct_of_ceiling) {
    ceiling_fractions pct;
    for (const auto& [name, value] : *best.m_pct_of_ceiling) pct[name] = value * scale;
    set_pct(pct, compute, row);
  }
  for (const std::string& name : baselines) {
    const measured_impl* b = best.measured(name);
    row.m_vs_baselines.push_back(b != nullptr ? std::optional<double>(b->m_median_ns / other.m_median_ns)
                                              : std::nullopt);
  }
  return row;
}

}  // namespace

std::string format_noise(std::optional<double> fraction) {
  if (!fraction) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2g%%", *fraction * 100);
  return text;
}

std::string row_label(const shape_row& row) {
  return row.m_role == "variant" || row.m_role == row.m_impl ? row.m_impl : row.m_impl + " (" + row.m_role + ")";
}

void add_shape_tables(const manifest& m, const record_set& records, report_model& report) {
  for (const impl_decl& b : m.m_baselines) report.m_baselines.push_back(b.m_name);
  const std::optional<std::string>& compute = report.m_roofline.m_compute_ceiling;
  const record* best = records.best();
  for (const std::string& shape : report.m_shapes) {
    shape_table table;
    table.m_shape = shape;
    for (std::size_t i = 0; i < report.m_versions.size() && i < records.size(); ++i) {
      const record* r = records.at(i);
      const shape_timing* s = r != nullptr ? r->m_timing.find(shape) : nullptr;
      if (s != nullptr) table.m_rows.push_back(version_row(report.m_versions[i], *s, report.m_baselines, compute));
    }
    const shape_timing* best_s = best != nullptr ? best->m_timing.find(shape) : nullptr;
    if (best_s != nullptr && !best_s->m_error) {
      std::vector<std::string> others;
      if (m.m_reference) others.push_back(m.m_reference->m_name);
      others.insert(others.end(), report.m_baselines.begin(), report.m_baselines.end());
      for (const std::string& name : others) {
        if (const measured_impl* other = best_s->measured(name))
          table.m_rows.push_back(other_row(*other, *best_s, report.m_baselines, compute));
      }
      // The spread: the best's percentiles, the baselines' (else the
      // reference's) median and noise, which is all the record keeps of them.
      const timing_stats& stats = best_s->m_stats;
      report.m_distribution.push_back({shape, best->m_variant, "best", stats.m_median_ns, stats.m_p10_ns,
                                       stats.m_p90_ns, stats.m_noise, stats.m_samples});
      std::vector<std::string> compared = report.m_baselines;
      if (compared.empty() && m.m_reference) compared.push_back(m.m_reference->m_name);
      for (const std::string& name : compared) {
        if (const measured_impl* other = best_s->measured(name))
          report.m_distribution.push_back({shape, name, other->m_role, other->m_median_ns, std::nullopt,
                                           std::nullopt, other->m_noise, 0});
      }
    }
    report.m_shape_tables.push_back(std::move(table));
  }
}

}  // namespace kopt
