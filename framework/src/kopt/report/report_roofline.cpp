// The roofline's model: the roofs from the measured ceilings, one dot per
// version and shape from the profile (Nsight Compute's duration) or, without
// one, from the work model (FLOPS / BYTES at the benchmark's median).
#include <algorithm>

#include "kopt/report/report_model.hpp"

namespace kopt {
namespace {

const json* find_path(const json& doc, std::initializer_list<const char*> keys) {
  const json* at = &doc;
  for (const char* key : keys) {
    if (!at->is_object()) return nullptr;
    const auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

std::optional<double> number_at(const json& doc, std::initializer_list<const char*> keys) {
  const json* value = find_path(doc, keys);
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

std::optional<std::string> string_at(const json& doc, std::initializer_list<const char*> keys) {
  const json* value = find_path(doc, keys);
  if (value == nullptr || !value->is_string()) return std::nullopt;
  return value->get<std::string>();
}

// The profile's benchmarks of the record's variant with a roofline point.
std::vector<const profile::profiled_benchmark*> profiled(const record& r) {
  std::vector<const profile::profiled_benchmark*> out;
  if (!r.m_profile.m_document || !r.m_profile.m_document->m_run) return out;
  for (const profile::profiled_benchmark& b : r.m_profile.m_document->m_run->m_benchmarks) {
    if (b.m_impl != r.m_variant) continue;
    // Both positive: the chart's axes are logarithmic.
    const auto intensity = number_at(b.m_roofline, {"arithmetic_intensity"});
    const auto achieved = number_at(b.m_roofline, {"achieved_flops_per_s"});
    if (intensity && achieved && *intensity > 0 && *achieved > 0) out.push_back(&b);
  }
  return out;
}

bool is_measured(const json& ceiling) {
  const std::optional<std::string> source = string_at(ceiling, {"source"});
  return source && source->rfind("measured", 0) == 0;
}

std::optional<roof> roof_from(const ceilings_file& ceilings, const std::string& name) {
  const ceiling* c = ceilings.find(name);
  if (c == nullptr || !c->m_value || *c->m_value <= 0) return std::nullopt;
  return roof{name, *c->m_value, c->measured()};
}

}  // namespace

void add_roofline(const record_set& records, report_model& report) {
  roofline_model& model = report.m_roofline;
  const record* best = records.best();
  // The roofs: from the best's ceilings document, else the newest that has one.
  const record* with_ceilings = best != nullptr && best->m_ceilings ? best : nullptr;
  for (std::size_t i = records.size(); with_ceilings == nullptr && i-- > 0;) {
    const record* r = records.at(i);
    if (r != nullptr && r->m_ceilings) with_ceilings = r;
  }
  // The compute ceiling the profile chose: the best's, else any profiled record's.
  std::vector<const record*> order;
  if (best != nullptr) order.push_back(best);
  for (std::size_t i = 0; i < records.size(); ++i)
    if (records.at(i) != nullptr) order.push_back(records.at(i));
  std::string why;
  const json* profile_compute = nullptr;
  const json* profile_bandwidth = nullptr;
  for (const record* r : order) {
    for (const profile::profiled_benchmark* b : profiled(*r)) {
      if (const auto name = string_at(b->m_roofline, {"compute_ceiling", "name"})) {
        model.m_compute_ceiling = name;
        why = string_at(b->m_roofline, {"compute_ceiling", "why"}).value_or("chosen by the profile");
        profile_compute = find_path(b->m_roofline, {"compute_ceiling"});
        profile_bandwidth = find_path(b->m_roofline, {"bandwidth_ceiling"});
        break;
      }
    }
    if (model.m_compute_ceiling) break;
  }

  if (with_ceilings != nullptr) {
    const ceilings_file& ceilings = *with_ceilings->m_ceilings;
    model.m_bandwidth = roof_from(ceilings, "copy_bandwidth");
    if (!model.m_bandwidth) model.m_bandwidth = roof_from(ceilings, "dram_bandwidth");
    if (model.m_compute_ceiling) {
      if (auto r = roof_from(ceilings, *model.m_compute_ceiling)) model.m_compute.push_back(*r);
      model.m_compute_why = *model.m_compute_ceiling + ": " + why;
    } else {
      for (const ceiling& c : ceilings.m_ceilings) {
        if (c.m_unit != "FLOP/s" || c.m_name.find("sparse") != std::string::npos) continue;
        if (auto r = roof_from(ceilings, c.m_name)) model.m_compute.push_back(*r);
      }
      model.m_compute_why = "every dense compute ceiling: no profile chose one";
    }
  }
  // No ceilings document: the profile's own (it may have used the spec file).
  auto from_profile = [](const json* c) -> std::optional<roof> {
    if (c == nullptr) return std::nullopt;
    const auto name = string_at(*c, {"name"});
    const auto value = number_at(*c, {"value"});
    if (!name || !value || *value <= 0) return std::nullopt;
    return roof{*name, *value, is_measured(*c)};
  };
  if (!model.m_bandwidth) model.m_bandwidth = from_profile(profile_bandwidth);
  if (model.m_compute.empty()) {
    if (auto r = from_profile(profile_compute)) {
      model.m_compute.push_back(*r);
      model.m_compute_why = r->m_name + ": " + why;
    }
  }
  std::sort(model.m_compute.begin(), model.m_compute.end(),
            [](const roof& a, const roof& b) { return a.m_value > b.m_value; });

  for (std::size_t i = 0; i < records.size(); ++i) {
    const record* r = records.at(i);
    if (r == nullptr || r->m_masked) continue;
    const bool is_best = r == best;
    const std::vector<const profile::profiled_benchmark*> points = profiled(*r);
    for (const shape_timing& s : r->m_timing.m_shapes) {
      if (s.m_error) continue;
      const auto at_shape = std::find_if(points.begin(), points.end(), [&](const profile::profiled_benchmark* b) {
        return b->m_shape == s.m_shape.text();
      });
      if (at_shape != points.end()) {
        const json& point = (*at_shape)->m_roofline;
        model.m_dots.push_back({r->m_variant, s.m_shape.text(), *number_at(point, {"arithmetic_intensity"}),
                                *number_at(point, {"achieved_flops_per_s"}), is_best, "profile"});
      } else if (s.m_tflops && s.m_gbps && *s.m_tflops > 0 && *s.m_gbps > 0) {
        model.m_dots.push_back(
            {r->m_variant, s.m_shape.text(), *s.m_tflops * 1e12 / (*s.m_gbps * 1e9), *s.m_tflops * 1e12, is_best, "work model"});
      } else {
        model.m_missing.push_back(r->m_variant + " at " + s.m_shape.text() + ": " +
                                  (s.m_tflops ? "no BYTES in the work model" : "no FLOPS in the work model"));
      }
    }
  }
  report.m_roofline_available = !model.m_dots.empty();
}

}  // namespace kopt
