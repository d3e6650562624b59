#include "kopt/compare/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/format.hpp"

namespace kopt {
namespace {

std::set<std::string> impls(const std::vector<timing_point>& points) {
  std::set<std::string> names;
  for (const timing_point& p : points) names.insert(p.m_impl);
  return names;
}

const timing_point* find(const std::vector<timing_point>& points, const std::string& impl,
                         const std::string& shape, bool by_shape_only) {
  for (const timing_point& p : points) {
    if ((by_shape_only || p.m_impl == impl) && p.m_shape == shape) return &p;
  }
  return nullptr;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Relative standard error of the median of n values: 1.2533 (sqrt(pi/2))
// x sample standard deviation / median / sqrt(n).
std::optional<double> repetition_noise(const std::vector<double>& values, double median) {
  const std::size_t n = values.size();
  if (n < 2 || !(median > 0)) return std::nullopt;
  double mean = 0;
  for (const double v : values) mean += v;
  mean /= static_cast<double>(n);
  double sq = 0;
  for (const double v : values) sq += (v - mean) * (v - mean);
  const double sd = std::sqrt(sq / static_cast<double>(n - 1));
  return 1.2533 * sd / median / std::sqrt(static_cast<double>(n));
}

std::optional<double> combined(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  return std::hypot(*a, *b);
}

// 2 or more repetitions a side, but too few for the U test.
bool few_repetitions(const std::vector<double>& base, const std::vector<double>& next) {
  return base.size() >= 2 && next.size() >= 2 &&
         (base.size() < k_utest_min_repetitions || next.size() < k_utest_min_repetitions);
}

// With few repetitions the noise rule's spread rests on a handful of values,
// and one burst of load on the machine can slow most of one side's
// processes. A FASTER or SLOWER then also needs the two sides apart: every
// repetition of the slower side slower than every repetition of the faster
// one. At 3 a side that is the strongest result a rank test can give
// (one-sided p = 1/20). Returns the verdict, UNSURE where the sides overlap.
verdict require_apart(verdict v, const std::vector<double>& base, const std::vector<double>& next) {
  if ((v != verdict::slower && v != verdict::faster) || !few_repetitions(base, next)) return v;
  const auto [base_min, base_max] = std::minmax_element(base.begin(), base.end());
  const auto [next_min, next_max] = std::minmax_element(next.begin(), next.end());
  const bool apart = v == verdict::slower ? *next_min > *base_max : *next_max < *base_min;
  return apart ? v : verdict::unsure;
}

// The geomean over rows of each repetition (the i-th of every row: one
// process of the benchmark), or nothing when the rows differ in their
// repetition counts (the i-th values then need not come from one process).
std::vector<double> geomean_per_repetition(const std::vector<const std::vector<double>*>& rows) {
  if (rows.empty()) return {};
  const std::size_t n = rows.front()->size();
  for (const std::vector<double>* row : rows) {
    if (row->size() != n) return {};
  }
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> values;
    for (const std::vector<double>* row : rows) values.push_back((*row)[i]);
    out.push_back(geometric_mean(values).value_or(0));
  }
  return out;
}

}  // namespace

const char* to_string(verdict v) {
  switch (v) {
    case verdict::faster:
      return "FASTER";
    case verdict::slower:
      return "SLOWER";
    case verdict::same:
      return "SAME";
    case verdict::unsure:
      return "UNSURE";
  }
  return "UNSURE";
}

std::optional<verdict> verdict_from_string(const std::string& text) {
  for (const verdict v : {verdict::faster, verdict::slower, verdict::same, verdict::unsure}) {
    if (text == to_string(v)) return v;
  }
  return std::nullopt;
}

bool compare_result::any_slower() const {
  if (m_geomean && m_geomean->m_verdict == verdict::slower) return true;
  for (const verdict_row& row : m_rows) {
    if (row.m_verdict == verdict::slower) return true;
  }
  return false;
}

verdict classify_utest(double change, double p_value, double threshold) {
  if (std::fabs(change) <= threshold) return verdict::same;
  if (p_value < k_utest_alpha) return change < 0 ? verdict::faster : verdict::slower;
  return verdict::unsure;
}

std::vector<timing_point> merge_repetitions(const std::vector<timing_point>& points) {
  std::vector<timing_point> merged;
  std::vector<std::vector<const timing_point*>> groups;
  for (const timing_point& p : points) {
    std::size_t i = 0;
    while (i < merged.size() && !(merged[i].m_impl == p.m_impl && merged[i].m_shape == p.m_shape)) ++i;
    if (i == merged.size()) {
      timing_point m;
      m.m_impl = p.m_impl;
      m.m_shape = p.m_shape;
      m.m_band = p.m_band;
      merged.push_back(m);
      groups.emplace_back();
    }
    groups[i].push_back(&p);
  }
  for (std::size_t i = 0; i < merged.size(); ++i) {
    if (groups[i].size() == 1) {
      merged[i] = *groups[i][0];
      continue;
    }
    timing_point& m = merged[i];
    double within_sq = 0;
    bool within_known = true;
    for (const timing_point* p : groups[i]) {
      if (p->m_repetitions_ns.empty()) {
        m.m_repetitions_ns.push_back(p->m_stats.m_median_ns);
      } else {
        m.m_repetitions_ns.insert(m.m_repetitions_ns.end(), p->m_repetitions_ns.begin(), p->m_repetitions_ns.end());
      }
      m.m_stats.m_samples += p->m_stats.m_samples;
      if (p->m_stats.m_noise) {
        within_sq += *p->m_stats.m_noise * *p->m_stats.m_noise;
      } else {
        within_known = false;
      }
    }
    m.m_stats.m_median_ns = median_of(m.m_repetitions_ns);
    m.m_stats.m_noise = repetition_noise(m.m_repetitions_ns, m.m_stats.m_median_ns);
    if (within_known) {
      // The rms of the points' own noise, over sqrt(n): a floor when the
      // repetitions happen to agree more closely than each was measured.
      const double k = static_cast<double>(groups[i].size());
      const double floor = std::sqrt(within_sq / k) / std::sqrt(k);
      m.m_stats.m_noise = std::max(m.m_stats.m_noise.value_or(0), floor);
    }
  }
  return merged;
}

verdict classify(double change, std::optional<double> noise, double threshold) {
  if (std::fabs(change) <= threshold) return verdict::same;
  if (noise && std::fabs(change) > k_noise_sigmas * *noise) {
    return change < 0 ? verdict::faster : verdict::slower;
  }
  return verdict::unsure;
}

compare_result compute_verdicts(const std::vector<timing_point>& base, const std::vector<timing_point>& next,
                                double threshold, std::optional<double> geomean_band) {
  compare_result result;
  result.m_threshold = threshold;
  const std::set<std::string> base_impls = impls(base);
  const std::set<std::string> next_impls = impls(next);
  const bool by_shape = base_impls.size() == 1 && next_impls.size() == 1 && base_impls != next_impls;
  const std::string renamed = by_shape ? *base_impls.begin() + " -> " + *next_impls.begin() : "";

  std::vector<double> ratios;
  std::vector<const std::vector<double>*> base_reps;
  std::vector<const std::vector<double>*> next_reps;
  double noise_sq = 0;
  bool noise_known = true;
  for (const timing_point& b : base) {
    const timing_point* n = find(next, b.m_impl, b.m_shape, by_shape);
    if (n == nullptr) {
      result.m_only_base.push_back(b.m_impl + " " + b.m_shape);
      continue;
    }
    verdict_row row;
    row.m_impl = by_shape ? renamed : b.m_impl;
    row.m_shape = b.m_shape;
    row.m_base_ns = b.m_stats.m_median_ns;
    row.m_new_ns = n->m_stats.m_median_ns;
    row.m_change = row.m_new_ns / row.m_base_ns - 1;
    row.m_noise = combined(b.m_stats.m_noise, n->m_stats.m_noise);
    row.m_threshold = std::max(threshold, b.m_band.value_or(0.0));
    row.m_base_repetitions = b.repetitions();
    row.m_new_repetitions = n->repetitions();
    if (b.m_repetitions_ns.size() >= k_utest_min_repetitions && n->m_repetitions_ns.size() >= k_utest_min_repetitions) {
      row.m_p_value = mann_whitney_p(b.m_repetitions_ns, n->m_repetitions_ns);
      row.m_verdict = classify_utest(row.m_change, *row.m_p_value, row.m_threshold);
    } else {
      row.m_verdict = require_apart(classify(row.m_change, row.m_noise, row.m_threshold), b.m_repetitions_ns,
                                    n->m_repetitions_ns);
    }
    base_reps.push_back(&b.m_repetitions_ns);
    next_reps.push_back(&n->m_repetitions_ns);
    ratios.push_back(row.m_new_ns / row.m_base_ns);
    if (row.m_noise) {
      noise_sq += *row.m_noise * *row.m_noise;
    } else {
      noise_known = false;
    }
    result.m_rows.push_back(row);
  }
  for (const timing_point& n : next) {
    if (find(base, n.m_impl, n.m_shape, by_shape) == nullptr)
      result.m_only_new.push_back(n.m_impl + " " + n.m_shape);
  }
  if (!ratios.empty()) {
    std::vector<double> base_times;
    std::vector<double> next_times;
    for (const verdict_row& row : result.m_rows) {
      base_times.push_back(row.m_base_ns);
      next_times.push_back(row.m_new_ns);
    }
    verdict_row g;
    g.m_impl = "all";
    g.m_shape = "geomean";
    g.m_base_repetitions = 0;  // not applicable: a summary of the rows
    g.m_new_repetitions = 0;
    g.m_base_ns = geometric_mean(base_times).value_or(0);
    g.m_new_ns = geometric_mean(next_times).value_or(0);
    g.m_change = geometric_mean(ratios).value_or(1) - 1;
    if (noise_known) g.m_noise = std::sqrt(noise_sq) / static_cast<double>(ratios.size());
    g.m_threshold = std::max(threshold, geomean_band.value_or(0.0));
    g.m_verdict = require_apart(classify(g.m_change, g.m_noise, g.m_threshold),
                                geomean_per_repetition(base_reps), geomean_per_repetition(next_reps));
    result.m_geomean = g;
  }
  return result;
}

}  // namespace kopt
