#include "cuda/nvml.hpp"

#include "bench/sampler.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>

namespace kopt::cuda::nvml {
namespace {

constexpr int k_success = 0;             // NVML_SUCCESS
constexpr unsigned k_version_length = 96;  // > NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE (80)
constexpr std::uint64_t k_gpu_idle = 0x1;
constexpr std::uint64_t k_applications_clocks = 0x2;

struct reason_bit {
  std::uint64_t m_bit;
  const char* m_name;
};
// nvmlClocksEventReason* (nvml.h), formerly nvmlClocksThrottleReason*.
constexpr reason_bit k_reasons[] = {
    {0x1, "gpu_idle"},
    {0x2, "applications_clocks_setting"},
    {0x4, "sw_power_cap"},
    {0x8, "hw_slowdown"},
    {0x10, "sync_boost"},
    {0x20, "sw_thermal_slowdown"},
    {0x40, "hw_thermal_slowdown"},
    {0x80, "hw_power_brake_slowdown"},
    {0x100, "display_clock_setting"},
};

// Sets `why` and returns "no value", for any std::optional.
std::nullopt_t failed(std::string& why, std::string text) {
  why = std::move(text);
  return std::nullopt;
}

template <typename F>
F symbol(void* handle, const char* name) {
  return reinterpret_cast<F>(dlsym(handle, name));
}

}  // namespace

const library& library::get() {
  static const library instance;
  return instance;
}

library::library() {
  m_handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (m_handle == nullptr) {
    const char* error = dlerror();
    m_error = std::string("NVML not loadable: dlopen(libnvidia-ml.so.1): ") + (error ? error : "unknown error");
    return;
  }
  using init_fn = int (*)();
  const auto init = symbol<init_fn>(m_handle, "nvmlInit_v2");
  m_error_string = symbol<error_string_fn>(m_handle, "nvmlErrorString");
  m_driver_version = symbol<driver_version_fn>(m_handle, "nvmlSystemGetDriverVersion");
  m_by_pci = symbol<by_string_fn>(m_handle, "nvmlDeviceGetHandleByPciBusId_v2");
  m_by_uuid = symbol<by_string_fn>(m_handle, "nvmlDeviceGetHandleByUUID");
  m_clock = symbol<clock_fn>(m_handle, "nvmlDeviceGetClockInfo");
  m_max_clock = symbol<clock_fn>(m_handle, "nvmlDeviceGetMaxClockInfo");
  m_reasons_name = "nvmlDeviceGetCurrentClocksEventReasons";
  m_reasons = symbol<reasons_fn>(m_handle, m_reasons_name);
  if (m_reasons == nullptr) {  // drivers before R535
    m_reasons_name = "nvmlDeviceGetCurrentClocksThrottleReasons";
    m_reasons = symbol<reasons_fn>(m_handle, m_reasons_name);
  }
  if (init == nullptr || m_error_string == nullptr) {
    m_error = "NVML: libnvidia-ml.so.1 lacks nvmlInit_v2 or nvmlErrorString";
    return;
  }
  const int status = init();
  if (status != k_success) m_error = "NVML: nvmlInit_v2: " + std::string(m_error_string(status));
}

std::string library::error_text(const char* call, int status) const {
  return std::string("NVML: ") + call + ": " + m_error_string(status);
}

std::optional<std::string> library::driver_version(std::string& why) const {
  if (!loaded()) return failed(why, m_error);
  if (m_driver_version == nullptr) return failed(why, "NVML: no nvmlSystemGetDriverVersion");
  char text[k_version_length] = {};
  const int status = m_driver_version(text, k_version_length);
  if (status != k_success) return failed(why, error_text("nvmlSystemGetDriverVersion", status));
  return std::string(text);
}

std::optional<device_handle> library::device(int cuda_device, std::string& why) const {
  if (!loaded()) return failed(why, m_error);
  device_handle handle = nullptr;
  char bus_id[64] = {};
  if (m_by_pci != nullptr && cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_device) == cudaSuccess &&
      m_by_pci(bus_id, &handle) == k_success) {
    return handle;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, cuda_device) != cudaSuccess) {
    return failed(why, "NVML: CUDA device " + std::to_string(cuda_device) + " has no properties");
  }
  if (m_by_uuid == nullptr) return failed(why, "NVML: no device with PCI bus id " + std::string(bus_id));
  const int status = m_by_uuid(uuid_text(prop.uuid.bytes).c_str(), &handle);
  if (status != k_success) return failed(why, error_text("nvmlDeviceGetHandleByUUID", status));
  return handle;
}

std::optional<int> library::clock_mhz(device_handle device, clock which, bool max, std::string& why) const {
  if (!loaded()) return failed(why, m_error);
  const clock_fn fn = max ? m_max_clock : m_clock;
  const char* name = max ? "nvmlDeviceGetMaxClockInfo" : "nvmlDeviceGetClockInfo";
  if (fn == nullptr) return failed(why, std::string("NVML: no ") + name);
  unsigned mhz = 0;
  const int status = fn(device, static_cast<int>(which), &mhz);
  if (status != k_success) return failed(why, error_text(name, status));
  return static_cast<int>(mhz);
}

std::optional<std::uint64_t> library::clock_event_reasons(device_handle device, std::string& why) const {
  if (!loaded()) return failed(why, m_error);
  if (m_reasons == nullptr) return failed(why, "NVML: no nvmlDeviceGetCurrentClocksEventReasons");
  unsigned long long mask = 0;
  const int status = m_reasons(device, &mask);
  if (status != k_success) return failed(why, error_text(m_reasons_name, status));
  return static_cast<std::uint64_t>(mask);
}

std::string uuid_text(const char* bytes) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes);
  char text[64];
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return text;
}

std::vector<std::string> reason_names(std::uint64_t mask) {
  std::vector<std::string> names;
  std::uint64_t known = 0;
  for (const reason_bit& r : k_reasons) {
    known |= r.m_bit;
    if ((mask & r.m_bit) != 0) names.emplace_back(r.m_name);
  }
  if ((mask & ~known) != 0) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(mask & ~known));
    names.emplace_back(text);
  }
  return names;
}

bool holds_clock_down(std::uint64_t mask) { return (mask & ~(k_gpu_idle | k_applications_clocks)) != 0; }

bool is_idle(std::uint64_t mask) { return (mask & k_gpu_idle) != 0; }

}  // namespace kopt::cuda::nvml

namespace kopt::cuda {
namespace {

}  // namespace

clock_monitor::clock_monitor(int cuda_device) {
  const nvml::library& lib = nvml::library::get();
  m_device = lib.device(cuda_device, m_why);
  if (!m_device) return;
  std::string why;
  m_limit_mhz = lib.clock_mhz(*m_device, nvml::clock::sm, true, why);
  if (!m_limit_mhz) m_why = why;
}

void clock_monitor::begin() {
  m_min_mhz.reset();
  m_max_mhz.reset();
  m_seen_reasons = 0;
  m_clock_held_down = false;
  m_clock_dropped = false;
  m_readings = 0;
  read();
}

void clock_monitor::poll() {
  if (bench::steady_now_s() - m_last_read_s >= k_poll_interval_s) read();
}

void clock_monitor::finish() { read(); }

void clock_monitor::read() {
  m_last_read_s = bench::steady_now_s();
  if (!m_device) return;
  const nvml::library& lib = nvml::library::get();
  std::string why;
  const std::optional<int> mhz = lib.clock_mhz(*m_device, nvml::clock::sm, false, why);
  const std::optional<std::uint64_t> reasons = lib.clock_event_reasons(*m_device, why);
  if (!mhz && !reasons) {
    m_why = why;
    return;
  }
  ++m_readings;
  const bool idle = reasons && nvml::is_idle(*reasons);
  if (reasons) {
    m_seen_reasons |= *reasons;
    m_clock_held_down = m_clock_held_down || nvml::holds_clock_down(*reasons);
  }
  // An idle GPU lowers its clock by design; only a busy reading counts.
  if (mhz && !idle) {
    m_min_mhz = m_min_mhz ? std::min(*m_min_mhz, *mhz) : *mhz;
    m_max_mhz = m_max_mhz ? std::max(*m_max_mhz, *mhz) : *mhz;
    if (m_limit_mhz && *mhz < (1.0 - k_max_drop) * *m_limit_mhz) m_clock_dropped = true;
  }
}

json clock_monitor::unknown_reason() const {
  if (m_readings > 0 && m_min_mhz && m_limit_mhz) return nullptr;
  if (!m_why.empty()) return m_why;
  if (m_readings > 0 && !m_min_mhz) return "every reading found the GPU idle";
  return "no NVML reading";
}

bool clock_monitor::throttled() const { return m_clock_held_down || m_clock_dropped; }

clock_window clock_monitor::window() const {
  const auto value = [](const std::optional<int>& v) { return v ? std::optional<std::int64_t>(*v) : std::nullopt; };
  clock_window w;
  w.m_sm_mhz_min = value(m_min_mhz);
  w.m_sm_mhz_max = value(m_max_mhz);
  w.m_sm_mhz_limit = value(m_limit_mhz);
  if (m_readings > 0) w.m_throttled = throttled();
  w.m_reasons = nvml::reason_names(m_seen_reasons & ~std::uint64_t{1});
  w.m_readings = m_readings;
  const json reason = unknown_reason();
  if (reason.is_string()) w.m_reason = reason.get<std::string>();
  return w;
}

}  // namespace kopt::cuda
