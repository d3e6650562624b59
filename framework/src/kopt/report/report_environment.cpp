// Where the numbers were taken: the best's (else the newest) machine from
// its record's env document, and per version the device, driver, the SM
// clock while it was timed and the flags its benchmark raised (throttled,
// clock_disagreement, ...).
#include <algorithm>
#include <map>
#include <set>

#include "core/format.hpp"
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
std::string cuda_version(const json& doc, const char* key) {
  if (!doc.is_object() || !doc.contains(key) || !doc[key].is_number_integer()) return text_of(doc, key);
  const std::int64_t v = doc[key].get<std::int64_t>();
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// The env document's device that timed the record (by uuid), else its first.
const json* device_of(const record& r) {
  const json& env = r.m_env;
  if (!env.is_object() || !env.contains("devices") || !env["devices"].is_array() || env["devices"].empty())
    return nullptr;
  const std::string uuid = r.m_timing.m_gpu.is_object() ? text_of(r.m_timing.m_gpu, "uuid") : "";
  for (const json& d : env["devices"])
    if (text_of(d, "uuid") == uuid) return &d;
  return &env["devices"][0];
}

std::string gib(const json& doc, const char* key) {
  if (!doc.contains(key) || !doc[key].is_number()) return "unknown";
  return format_number(doc[key].get<double>() / (1024.0 * 1024 * 1024), 3) + " GiB";
}

std::string mib(const json& doc, const char* key) {
  if (!doc.contains(key) || !doc[key].is_number()) return "unknown";
  return format_number(doc[key].get<double>() / (1024.0 * 1024), 3) + " MiB";
}

std::string clock_text(const json& doc, const char* now, const char* max) {
  const std::string a = text_of(doc, now);
  const std::string b = text_of(doc, max);
  if (a == "unknown") return "unknown";
  return a + " MHz" + (b == "unknown" ? std::string() : " (max " + b + ")");
}

run_environment run_of(const record& r) {
  run_environment run;
  run.m_variant = r.m_variant;
  run.m_device = r.m_timing.m_device.empty() ? "unknown" : r.m_timing.m_device;
  run.m_driver = text_of(r.m_env, "driver_version");
  run.m_cuda = cuda_version(r.m_env, "cuda_runtime");
  // The SM clock over the shapes' readings while sampling.
  std::optional<double> lo, hi, limit;
  std::map<std::string, int> flags;
  std::set<std::string> reasons;
  int shapes = 0;
  for (const shape_timing& s : r.m_timing.m_shapes) {
    if (s.m_error) continue;
    ++shapes;
    for (const std::string& f : s.m_flags) ++flags[f];
    const json& c = s.m_clock;
    if (!c.is_object()) continue;
    if (c.contains("sm_mhz_min") && c["sm_mhz_min"].is_number())
      lo = std::min(lo.value_or(1e300), c["sm_mhz_min"].get<double>());
    if (c.contains("sm_mhz_max") && c["sm_mhz_max"].is_number())
      hi = std::max(hi.value_or(0), c["sm_mhz_max"].get<double>());
    if (c.contains("sm_mhz_limit") && c["sm_mhz_limit"].is_number()) limit = c["sm_mhz_limit"].get<double>();
    if (c.contains("reasons") && c["reasons"].is_array())
      for (const json& reason : c["reasons"])
        if (reason.is_string()) reasons.insert(reason.get<std::string>());
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
  const json& env = r->m_env;
  out.emplace_back("record", r->m_variant + " (" + (records.best() == r ? "the best" : "the newest") + ")");
  out.emplace_back("env taken", text_of(env, "timestamp_utc"));
  out.emplace_back("host", text_of(env, "hostname"));
  if (const json* d = device_of(*r)) {
    out.emplace_back("GPU", text_of(*d, "name") + " (index " + text_of(*d, "index") + ", " + text_of(*d, "pci_bus_id") +
                                ")");
    out.emplace_back("compute capability", text_of(*d, "compute_capability"));
    out.emplace_back("SMs", text_of(*d, "sm_count"));
    out.emplace_back("memory", gib(*d, "global_memory_bytes") + ", L2 " + mib(*d, "l2_bytes"));
    out.emplace_back("SM clock at env", clock_text(*d, "sm_clock_mhz", "sm_clock_max_mhz"));
    out.emplace_back("memory clock at env", clock_text(*d, "mem_clock_mhz", "mem_clock_max_mhz"));
    std::vector<std::string> throttle;
    if (d->contains("throttle_reasons") && (*d)["throttle_reasons"].is_array())
      for (const json& t : (*d)["throttle_reasons"])
        if (t.is_string()) throttle.push_back(t.get<std::string>());
    out.emplace_back("throttle reasons at env", throttle.empty() ? "none" : join(throttle, ", "));
  } else {
    out.emplace_back("GPU", "unknown (" + text_of(env, "no_device_reason") + ")");
  }
  out.emplace_back("driver", text_of(env, "driver_version"));
  out.emplace_back("CUDA runtime / driver API", cuda_version(env, "cuda_runtime") + " / " +
                                                     cuda_version(env, "cuda_driver_api"));
  out.emplace_back("performance counters readable", text_of(env, "counters_readable"));
  if (r->m_ceilings) {
    out.emplace_back("ceilings measured", r->m_ceilings->m_date + " on " + r->m_ceilings->m_device);
  } else {
    out.emplace_back("ceilings measured", "none (no ceilings document in the record)");
  }
}

}  // namespace kopt
