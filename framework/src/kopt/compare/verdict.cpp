#include "kopt/compare/verdict.hpp"

#include <cmath>
#include <set>

#include "kopt/inputs/bench.hpp"
#include "core/format.hpp"
#include "kopt/records/record.hpp"

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

std::optional<double> combined(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  return std::hypot(*a, *b);
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

verdict classify(double change, std::optional<double> noise, double threshold) {
  if (std::fabs(change) <= threshold) return verdict::same;
  if (noise && std::fabs(change) > k_noise_sigmas * *noise) {
    return change < 0 ? verdict::faster : verdict::slower;
  }
  return verdict::unsure;
}

compare_result compute_verdicts(const std::vector<timing_point>& base, const std::vector<timing_point>& next,
                                double threshold) {
  compare_result result;
  result.m_threshold = threshold;
  const std::set<std::string> base_impls = impls(base);
  const std::set<std::string> next_impls = impls(next);
  const bool by_shape = base_impls.size() == 1 && next_impls.size() == 1 && base_impls != next_impls;
  const std::string renamed = by_shape ? *base_impls.begin() + " -> " + *next_impls.begin() : "";

  std::vector<double> ratios;
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
    row.m_verdict = classify(row.m_change, row.m_noise, threshold);
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
    g.m_base_ns = geometric_mean(base_times).value_or(0);
    g.m_new_ns = geometric_mean(next_times).value_or(0);
    g.m_change = geometric_mean(ratios).value_or(1) - 1;
    if (noise_known) g.m_noise = std::sqrt(noise_sq) / static_cast<double>(ratios.size());
    g.m_verdict = classify(g.m_change, g.m_noise, threshold);
    result.m_geomean = g;
  }
  return result;
}

std::vector<timing_point> load_timing_points(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  std::vector<timing_point> points;
  if (doc.is_object() && doc.contains("kind") && doc["kind"] == "kernelopt.record") {
    check_kind(doc, path, "kernelopt.record", k_record_schema_version);
    const record r = record_from_json(doc, path.string());
    for (const shape_timing& s : r.m_timing.m_shapes) {
      if (!s.m_error) points.push_back({r.m_variant, s.m_shape.text(), s.m_stats});
    }
    return points;
  }
  if (!doc.is_object() || !doc.contains("benchmarks")) {
    throw format_error(path.string() +
                       ": /: neither a benchmark JSON file (no \"benchmarks\") nor a kernelopt.record");
  }
  const bench_set bench = bench_from_json(doc, path.string());
  for (const bench_row& row : bench.m_rows) {
    if (!row.m_error) points.push_back({row.m_impl, row.m_shape, row.m_stats});
  }
  return points;
}

}  // namespace kopt
