// The roofline's model: the roofs from the measured ceilings, one dot per
// version and shape from the profile (Nsight Compute's duration) or, without
// one, from the work model (FLOPS / BYTES at the benchmark's median).
#include <algorithm>

#include "kopt/report/report_model.hpp"

namespace kopt {
namespace {

// The profile's benchmarks of the record's variant with a roofline point.
std::vector<const profile::profiled_benchmark*> profiled(const record& r) {
  std::vector<const profile::profiled_benchmark*> out;
  if (!r.m_profile.m_document || !r.m_profile.m_document->m_run) return out;
  for (const profile::profiled_benchmark& b : r.m_profile.m_document->m_run->m_benchmarks) {
    if (b.m_impl != r.m_variant) continue;
    // Both positive: the chart's axes are logarithmic.
    if (b.m_roofline && b.m_roofline->m_intensity > 0 && b.m_roofline->m_achieved_flops > 0) out.push_back(&b);
  }
  return out;
}

bool is_measured(const profile::ceiling_value& ceiling) { return ceiling.m_source.rfind("measured", 0) == 0; }

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
  const profile::ceiling_value* profile_compute = nullptr;
  const profile::ceiling_value* profile_bandwidth = nullptr;
  for (const record* r : order) {
    for (const profile::profiled_benchmark* b : profiled(*r)) {
      model.m_compute_ceiling = b->m_roofline->m_compute.m_name;
      why = b->m_compute_why.value_or("chosen by the profile");
      profile_compute = &b->m_roofline->m_compute;
      profile_bandwidth = &b->m_roofline->m_bandwidth;
      break;
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
  auto from_profile = [](const profile::ceiling_value* c) -> std::optional<roof> {
    if (c == nullptr || c->m_name.empty() || c->m_value <= 0) return std::nullopt;
    return roof{c->m_name, c->m_value, is_measured(*c)};
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
        const profile::roofline_point& point = *(*at_shape)->m_roofline;
        model.m_dots.push_back(
            {r->m_variant, s.m_shape.text(), point.m_intensity, point.m_achieved_flops, is_best, "profile"});
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
