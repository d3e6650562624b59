#include "kopt/experience/from_record.hpp"

#include "core/format.hpp"

namespace kopt {
namespace {

std::optional<double> geomean_speedup(const record& r, std::optional<double> shape_timing::*field) {
  std::vector<double> values;
  for (const shape_timing& s : r.m_timing.m_shapes) {
    if (s.m_error) continue;
    if (!(s.*field)) return std::nullopt;
    values.push_back(*(s.*field));
  }
  return geometric_mean(values);
}

std::string bottleneck_of(const record* r) {
  return r != nullptr ? profiled_bottleneck(*r).value_or("not profiled") : "not profiled";
}

std::string gpu_of(const record& r) {
  if (!r.m_timing.m_device.empty()) return r.m_timing.m_device;
  return "unknown";
}

}  // namespace

std::optional<experience_entry> entry_of(const manifest& m, const record_set& records, std::size_t index,
                                         const entry_options& options) {
  const record* r = records.at(index);
  if (r == nullptr || r->m_masked) return std::nullopt;
  if (records.status_at(index).m_state == record_state::inconsistent) return std::nullopt;
  experience_entry e;
  e.m_kernel = m.m_kernel;
  e.m_kernel_class = options.m_kernel_class.value_or(default_kernel_class(m.m_kernel));
  const std::vector<std::string> dtypes = m.input_dtypes();
  e.m_dtype = dtypes.empty() ? "unknown" : join(dtypes, ",");
  e.m_backend = m.m_backend;
  e.m_gpu = gpu_of(*r);
  e.m_variant = r->m_variant;
  e.m_parent = r->m_parent;
  const record* parent = r->m_parent ? records.get(m, *r->m_parent) : nullptr;
  e.m_bottleneck_before = r->m_parent ? bottleneck_of(parent) : "none (root)";
  e.m_bottleneck_after = bottleneck_of(r);
  e.m_methods = r->m_methods;
  e.m_hypothesis = r->m_hypothesis.value_or("");
  e.m_speedup_vs_parent = geomean_speedup(*r, &shape_timing::m_speedup_vs_parent);
  e.m_speedup_vs_best = geomean_speedup(*r, &shape_timing::m_speedup_vs_best);
  e.m_decision = r->m_gate.m_decision;
  const bool correct = r->m_correctness.m_status == "pass" && !r->m_failure;
  e.m_outcome = outcome_class(!r->m_parent, correct,
                              e.m_speedup_vs_parent ? e.m_speedup_vs_parent : e.m_speedup_vs_best);
  e.m_date = r->m_created_utc;
  e.m_source.m_repository = options.m_repository.empty() ? m.m_records_dir.string() : options.m_repository;
  e.m_source.m_record = m.m_kernel + "/" + r->m_variant + ".json";
  e.m_source.m_source_hash = r->m_source.m_sha256;
  e.m_id = entry_id(e);
  return e;
}

std::vector<experience_entry> entries_of(const manifest& m, const record_set& records,
                                         const entry_options& options) {
  std::vector<experience_entry> entries;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (auto e = entry_of(m, records, i, options)) entries.push_back(std::move(*e));
  }
  return entries;
}

}  // namespace kopt
