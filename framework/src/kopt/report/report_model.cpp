#include "kopt/report/report_model.hpp"

#include <algorithm>
#include <filesystem>

#include "core/format.hpp"
#include "kopt/decide/gate.hpp"
#include "kopt/decide/stop.hpp"
#include "kopt/experience/from_record.hpp"
#include "kopt/sweep/selection.hpp"
#include "kopt/experience/recommend.hpp"
#include "kopt/decide/targets.hpp"
#include "core/utc.hpp"

namespace kopt {
namespace {

std::optional<double> geomean_of(const std::vector<shape_timing>& shapes,
                                 std::optional<double> (*pick)(const shape_timing&)) {
  std::vector<double> values;
  for (const shape_timing& s : shapes) {
    if (s.m_error) continue;
    const std::optional<double> v = pick(s);
    if (!v) return std::nullopt;
    values.push_back(*v);
  }
  return geometric_mean(values);
}

// Root time / this time over the shapes both were timed on (different runs).
std::optional<double> across_runs(const record& root, const record& r) {
  std::vector<double> ratios;
  for (const shape_timing& s : r.m_timing.m_shapes) {
    const shape_timing* base = root.m_timing.find(s.m_shape.text());
    if (s.m_error || base == nullptr || base->m_error) continue;
    ratios.push_back(base->m_stats.m_median_ns / s.m_stats.m_median_ns);
  }
  return geometric_mean(ratios);
}

std::string bottleneck_of(const record& r) {
  if (const std::optional<std::string> bottleneck = profiled_bottleneck(r)) return *bottleneck;
  // A profile of several implementations says nothing of this one alone.
  if (!r.m_profile.m_document || r.m_profile.m_document->m_status == "unavailable") return "not profiled";
  return "unknown";
}

}  // namespace

report_model build_report(const manifest& m, const record_set& records, const std::string& notes,
                          const std::vector<experience_entry>& store, const std::string& store_dir) {
  report_model report;
  report.m_kernel = m.m_kernel;
  report.m_generated_utc = utc_now_iso();
  report.m_notes = notes;
  for (const variant_decl& v : m.m_variants) {
    if (!v.m_family || !std::filesystem::exists(v.m_family->m_selection)) continue;
    report_family family;
    family.m_variant = v.m_name;
    try {
      const selection s = read_selection(v.m_family->m_selection);
      for (const shape_selection& shape : s.m_shapes) family.m_served.emplace_back(shape.m_shape, shape.m_champion);
      family.m_points = s.m_points.size();
      family.m_failed = s.m_failed.size();
    } catch (const std::exception& error) {
      family.m_error = error.what();
    }
    report.m_families.push_back(family);
  }
  report.m_shapes = m.m_shapes;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (const record* r = records.at(i)) {
      for (const shape_timing& s : r->m_timing.m_shapes) {
        if (std::find(report.m_shapes.begin(), report.m_shapes.end(), s.m_shape) == report.m_shapes.end()) {
          report.m_shapes.push_back(s.m_shape.text());
        }
      }
    }
  }
  const record* root = records.at(0);
  const record* best = records.best();
  if (root != nullptr) report.m_root = root->m_variant;
  if (best != nullptr) report.m_best = best->m_variant;

  for (std::size_t i = 0; i < m.m_variants.size(); ++i) {
    const variant_decl& decl = m.m_variants[i];
    report_version v;
    v.m_variant = decl.m_name;
    v.m_parent = decl.m_parent;
    v.m_hypothesis = decl.m_hypothesis;
    const record* r = records.at(i);
    if (r == nullptr) {
      v.m_correctness = "no record";
      v.m_decision = "not recorded";
      v.m_bottleneck = "not profiled";
      v.m_shape_ns.assign(report.m_shapes.size(), std::nullopt);
      report.m_versions.push_back(std::move(v));
      continue;
    }
    v.m_recorded = true;
    if (r->m_ablation) report.m_ablations.push_back({decl.m_name, *r->m_ablation});
    v.m_quick = r->m_timing.m_quick;
    v.m_correctness = r->m_correctness.m_status;
    v.m_geomean_ns = geomean_of(r->m_timing.m_shapes,
                                [](const shape_timing& s) -> std::optional<double> { return s.m_stats.m_median_ns; });
    v.m_vs_parent =
        geomean_of(r->m_timing.m_shapes, [](const shape_timing& s) { return s.m_speedup_vs_parent; });
    if (root != nullptr) v.m_vs_root = across_runs(*root, *r);
    const record_status& status = records.status_at(i);
    v.m_decision = r->m_masked && status.m_state == record_state::masked ? "MASKED" : status.label(*r);
    // Re-checked now: stale or inconsistent records say why and never count.
    if (status.m_state == record_state::stale || status.m_state == record_state::inconsistent) {
      v.m_reasons.push_back(status.describe(*r) + ": does not count as best");
    }
    // Masked: why. Rejected: what failed. Accepted: by how much it won.
    if (r->m_masked) {
      v.m_reasons.push_back("masked: " + r->m_masked->m_reason);
    } else {
      for (const gate_check& k : r->m_gate.m_checks) {
        if (r->m_gate.accepted() ? k.m_rule == "speedup" : !k.m_ok) v.m_reasons.push_back(k.m_detail);
      }
    }
    v.m_is_best = best == r;
    v.m_bottleneck = bottleneck_of(*r);
    for (const std::string& shape : report.m_shapes) {
      const shape_timing* s = r->m_timing.find(shape);
      v.m_shape_ns.push_back(s != nullptr && !s->m_error ? std::optional<double>(s->m_stats.m_median_ns)
                                                         : std::nullopt);
    }
    if (report.m_device.empty()) report.m_device = r->m_timing.m_device;
    report.m_versions.push_back(std::move(v));
  }

  if (best != nullptr) {
    report.m_device = best->m_timing.m_device.empty() ? report.m_device : best->m_timing.m_device;
    if (root != nullptr) report.m_best_vs_root = across_runs(*root, *best);
    report.m_best_vs_reference =
        geomean_of(best->m_timing.m_shapes, [](const shape_timing& s) { return s.m_speedup_vs_reference; });
    for (const impl_decl& baseline : m.m_baselines) {
      std::vector<double> values;
      bool known = true;
      for (const shape_timing& s : best->m_timing.m_shapes) {
        if (s.m_error) continue;
        for (const auto& [name, value] : s.m_speedup_vs_baselines) {
          if (name != baseline.m_name) continue;
          if (value) {
            values.push_back(*value);
          } else {
            known = false;
          }
        }
      }
      report.m_best_vs_baselines.emplace_back(baseline.m_name, known ? geometric_mean(values) : std::nullopt);
    }
    std::vector<std::string> others;
    if (m.m_reference) {
      others.push_back(m.m_reference->m_name);
      report.m_reference_name = m.m_reference->m_name;
    }
    for (const impl_decl& baseline : m.m_baselines) others.push_back(baseline.m_name);
    for (const std::string& name : others) {
      std::vector<std::optional<double>> times;
      std::vector<double> known_times;
      for (const std::string& shape : report.m_shapes) {
        const shape_timing* s = best->m_timing.find(shape);
        const measured_impl* other = s != nullptr ? s->measured(name) : nullptr;
        times.push_back(other != nullptr ? std::optional<double>(other->m_median_ns) : std::nullopt);
        if (other != nullptr) known_times.push_back(other->m_median_ns);
      }
      if (m.m_reference && name == m.m_reference->m_name)
        report.m_reference_geomean_ns = geometric_mean(known_times);
      report.m_other_rows.emplace_back(name, std::move(times));
    }
    report.m_targets = evaluate_targets(m.m_targets, best->m_timing, best->m_ceilings);
    const auto gaps = roofline_gaps(best->m_profile);
    report.m_target_met = all_met(report.m_targets) ||
                          (gaps && std::all_of(gaps->begin(), gaps->end(),
                                               [](const auto& g) { return g.second < k_roofline_gap; }));
  } else {
    for (const std::string& target : m.m_targets)
      report.m_targets.push_back({target, "unknown", {"no accepted variant yet"}});
  }
  const stop_status stop = evaluate_stop(m, records);
  report.m_stop_reason = stop.summary();
  report.m_stop = stop.m_stop;
  report.m_next_step = stop.m_next_step;
  for (const experience_entry& e : entries_of(m, records, {})) {
    report.m_methods_tried.push_back({e.m_variant, e.m_methods, e.m_decision, e.m_outcome, e.m_speedup_vs_parent});
  }
  report.m_store = store_dir;
  recommend_query query;
  query.m_kernel = m.m_kernel;
  query.m_backend = m.m_backend;
  if (stop.m_bottleneck != "not profiled") query.m_bottleneck = stop.m_bottleneck;
  query.m_top = 3;
  for (const recommendation& r : recommend(store, query).m_ranked) {
    report_advice advice{r.m_method, r.m_score, "", ""};
    std::vector<std::string> evidence, tried;
    for (const scored_entry& s : r.m_evidence) {
      evidence.push_back(s.m_entry->m_source.m_record + " " + s.m_entry->m_outcome + " " +
                         format_speedup(s.m_entry->m_speedup_vs_parent));
    }
    for (const tried_here& t : r.m_tried) tried.push_back(t.m_variant + " " + t.m_outcome);
    advice.m_evidence = join(evidence, ", ");
    advice.m_tried = join(tried, ", ");
    report.m_recommendations.push_back(std::move(advice));
  }
  add_roofline(records, report);
  add_shape_tables(m, records, report);
  add_environment(records, report);
  return report;
}

}  // namespace kopt
