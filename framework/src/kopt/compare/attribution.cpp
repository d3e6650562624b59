#include "kopt/compare/attribution.hpp"

#include <cmath>

#include "core/format.hpp"

namespace kopt {
namespace {

std::vector<timing_point> points_of(const std::vector<timing_point>& points, const std::string& impl,
                                    const std::string& as) {
  std::vector<timing_point> out;
  for (const timing_point& p : points) {
    if (p.m_impl != impl) continue;
    timing_point q = p;
    q.m_impl = as;
    out.push_back(q);
  }
  return out;
}

std::string noise_text(const std::optional<double>& noise) {
  return noise ? format_percent(*noise) : std::string("unknown");
}

// The class and its one-line evidence from the geomean row.
void classify_method(ablation_method& m, const verdict_row& g) {
  const std::string change = format_percent(std::fabs(g.m_change));
  switch (g.m_verdict) {
    case verdict::slower:
      m.m_class = k_ablation_effective;
      m.m_detail = "without it the variant is " + change + " slower (geomean), beyond max(" +
                   format_percent(g.m_threshold) + ", 3 x noise " + noise_text(g.m_noise) + ")";
      break;
    case verdict::same:
      m.m_class = k_ablation_ineffective;
      m.m_detail = "without it the variant changes by " + change + " (geomean), within " +
                   format_percent(g.m_threshold);
      break;
    case verdict::faster:
      m.m_class = k_ablation_ineffective;
      m.m_detail = "without it the variant is " + change + " faster (geomean): the method costs time";
      break;
    case verdict::unsure:
      m.m_class = k_ablation_unsure;
      m.m_detail = "a " + change + " change (geomean) that the noise (" + noise_text(g.m_noise) +
                   ") cannot separate from none; more --repetitions may decide";
      break;
  }
}

}  // namespace

std::vector<ablation_method> compute_attribution(const std::string& variant, const std::vector<timing_point>& points,
                                                 const std::vector<ablation_outcome>& outcomes, double threshold) {
  const std::vector<timing_point> with = points_of(points, variant, variant);
  std::vector<ablation_method> methods;
  for (const ablation_outcome& o : outcomes) {
    ablation_method m;
    m.m_method = o.m_switch.m_method;
    m.m_macro = o.m_switch.m_macro;
    m.m_impl = o.m_switch.m_impl;
    m.m_sass_without = o.m_sass_without;
    if (o.m_failure) {
      m.m_class = k_ablation_failed;
      m.m_failure = o.m_failure;
      m.m_detail = o.m_failure_detail;
      methods.push_back(m);
      continue;
    }
    const compare_result result = compute_verdicts(with, points_of(points, o.m_switch.m_impl, variant), threshold);
    if (result.m_rows.empty() || !result.m_geomean) {
      m.m_class = k_ablation_failed;
      m.m_failure = "benchmark";
      m.m_detail = "no shape of " + o.m_switch.m_impl + " was timed beside " + variant;
      methods.push_back(m);
      continue;
    }
    for (const verdict_row& row : result.m_rows) {
      ablation_shape s;
      s.m_shape = row.m_shape;
      s.m_with_ns = row.m_base_ns;
      s.m_without_ns = row.m_new_ns;
      s.m_attribution_ns = row.m_new_ns - row.m_base_ns;
      s.m_change = row.m_change;
      s.m_noise = row.m_noise;
      s.m_p_value = row.m_p_value;
      s.m_verdict = to_string(row.m_verdict);
      m.m_shapes.push_back(s);
    }
    m.m_change = result.m_geomean->m_change;
    m.m_noise = result.m_geomean->m_noise;
    classify_method(m, *result.m_geomean);
    if (!result.m_only_base.empty()) {
      m.m_detail += "; not timed without it: " + join(result.m_only_base, ", ");
    }
    methods.push_back(m);
  }
  return methods;
}

}  // namespace kopt
