// Where the numbers were taken: the best's (else the newest) machine from
// its record's env document, and per version the device, driver, the SM
// clock while it was timed and the flags its benchmark raised (throttled,
// clock_disagreement, ...).
#include <algorithm>
#include <map>
#include <set>
#include <type_traits>

#include "core/format.hpp"
#include "formats/env.hpp"
#include "kopt/report/report_model.hpp"

namespace kopt {
namespace {

std::string text_of(const json& doc, const char* key) {
  if (!doc.is_object() || !doc.contains(key)) return "unknown";
  const json& value = doc[key];
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  if (value.is_number()) return format_number(value.get<double>());
  return "unknown";
}

// 13000 -> "13.0" (the CUDA API's 1000 * major + 10 * minor).
std::string cuda_version(const std::optional<std::int64_t>& v) {
  if (!v) return "unknown";
  return std::to_string(*v / 1000) + "." + std::to_string((*v % 1000) / 10);
}

template <typename T>
std::string or_unknown(const std::optional<T>& value) {
  if (!value) return "unknown";
  if constexpr (std::is_same_v<T, std::string>) {
    return *value;
  } else if constexpr (std::is_same_v<T, bool>) {
    return *value ? "yes" : "no";
  } else {
    return std::to_string(*value);
  }
}

// The env document's device that timed the record (by uuid), else its first.
const env_device* device_of(const record& r) {
  if (!r.m_env.m_document || r.m_env.m_document->m_devices.empty()) return nullptr;
  const std::vector<env_device>& devices = r.m_env.m_document->m_devices;
  const std::string uuid = r.m_timing.m_gpu ? r.m_timing.m_gpu->m_uuid.value_or("unknown") : "";
  for (const env_device& d : devices)
    if (d.m_uuid == uuid) return &d;
  return &devices.front();
}

std::string gib(std::int64_t bytes) { return format_number(static_cast<double>(bytes) / (1024.0 * 1024 * 1024), 3) + " GiB"; }
std::string mib(std::int64_t bytes) { return format_number(static_cast<double>(bytes) / (1024.0 * 1024), 3) + " MiB"; }

std::string clock_text(const std::optional<std::int64_t>& now, const std::optional<std::int64_t>& max) {
  if (!now) return "unknown";
  return std::to_string(*now) + " MHz" + (max ? " (max " + std::to_string(*max) + ")" : std::string());
}

run_environment run_of(const record& r) {
  run_environment run;
  run.m_variant = r.m_variant;
  run.m_device = r.m_timing.m_device.empty() ? "unknown" : r.m_timing.m_device;
  const std::optional<env_file>& env = r.m_env.m_document;
  run.m_driver = env ? or_unknown(env->m_driver_version) : "unknown";
  run.m_cuda = env ? cuda_version(env->m_cuda_runtime) : "unknown";
  // The SM clock over the shapes' readings while sampling.
  std::optional<double> lo, hi, limit;
  std::map<std::string, int> flags;
  std::set<std::string> reasons;
  int shapes = 0;
  for (const shape_timing& s : r.m_timing.m_shapes) {
    if (s.m_error) continue;
    ++shapes;
    for (const std::string& f : s.m_flags) ++flags[f];
    if (!s.m_clock) continue;
    const clock_window& c = *s.m_clock;
    if (c.m_sm_mhz_min) lo = std::min(lo.value_or(1e300), static_cast<double>(*c.m_sm_mhz_min));
    if (c.m_sm_mhz_max) hi = std::max(hi.value_or(0), static_cast<double>(*c.m_sm_mhz_max));
    if (c.m_sm_mhz_limit) limit = static_cast<double>(*c.m_sm_mhz_limit);
    reasons.insert(c.m_reasons.begin(), c.m_reasons.end());
  }
  if (lo && hi) {
    run.m_sm_clock = format_number(*lo) + (*hi != *lo ? "-" + format_number(*hi) : std::string()) + " MHz" +
                     (limit ? " (limit " + format_number(*limit) + ")" : std::string());
  } else {
    run.m_sm_clock = "unknown";
  }
  for (const auto& [flag, count] : flags) {
    std::string text = flag + " (" + std::to_string(count) + " of " + std::to_string(shapes) + " shapes";
    if (flag == "throttled" && !reasons.empty())
      text += ": " + join(std::vector<std::string>(reasons.begin(), reasons.end()), ", ");
    run.m_flags.push_back(text + ")");
  }
  return run;
}

}  // namespace

void add_environment(const record_set& records, report_model& report) {
  const record* r = records.best() != nullptr ? records.best() : records.newest();
  for (std::size_t i = 0; i < records.size(); ++i)
    if (const record* each = records.at(i)) report.m_runs.push_back(run_of(*each));
  if (r == nullptr) return;
  auto& out = report.m_machine;
  out.emplace_back("record", r->m_variant + " (" + (records.best() == r ? "the best" : "the newest") + ")");
  if (!r->m_env.m_document) {
    out.emplace_back("env", "unknown (" + (r->m_env.m_reason.empty() ? std::string("no env document") : r->m_env.m_reason) + ")");
  } else {
    const env_file& env = *r->m_env.m_document;
    out.emplace_back("env taken", env.m_timestamp_utc.empty() ? "unknown" : env.m_timestamp_utc);
    out.emplace_back("host", env.m_hostname);
    if (const env_device* d = device_of(*r)) {
      out.emplace_back("GPU", d->m_name + " (index " + std::to_string(d->m_index) + ", " + d->m_pci_bus_id + ")");
      out.emplace_back("compute capability", d->m_compute_capability.empty() ? "unknown" : d->m_compute_capability);
      out.emplace_back("SMs", std::to_string(d->m_sm_count));
      out.emplace_back("memory", gib(d->m_global_memory_bytes) + ", L2 " + mib(d->m_l2_bytes));
      out.emplace_back("SM clock at env", clock_text(d->m_sm_clock_mhz, d->m_sm_clock_max_mhz));
      out.emplace_back("memory clock at env", clock_text(d->m_mem_clock_mhz, d->m_mem_clock_max_mhz));
      out.emplace_back("throttle reasons at env", d->m_throttle_reasons.empty() ? "none" : join(d->m_throttle_reasons, ", "));
    } else {
      out.emplace_back("GPU", "unknown (" + or_unknown(env.m_no_device_reason) + ")");
    }
    out.emplace_back("driver", or_unknown(env.m_driver_version));
    out.emplace_back("CUDA runtime / driver API", cuda_version(env.m_cuda_runtime) + " / " + cuda_version(env.m_cuda_driver_api));
    out.emplace_back("performance counters readable", or_unknown(env.m_counters_readable));
  }
  if (r->m_ceilings) {
    out.emplace_back("ceilings measured", r->m_ceilings->m_date + " on " + r->m_ceilings->m_device);
  } else {
    out.emplace_back("ceilings measured", "none (no ceilings document in the record)");
  }
}

}  // namespace kopt
