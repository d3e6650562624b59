#include "cuda/environment_probe.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <sstream>

#include "cuda/nvml.hpp"

namespace kopt::cuda {
namespace {

constexpr const char* k_params_file = "/proc/driver/nvidia/params";
constexpr const char* k_version_file = "/proc/driver/nvidia/version";

std::string hostname() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string cuda_error_text(cudaError_t status) {
  return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
}

// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Thu ..." -> "580.95.05"
std::optional<std::string> proc_driver_version() {
  std::ifstream file(k_version_file);
  std::string line;
  if (!std::getline(file, line)) return std::nullopt;
  const std::string marker = "Kernel Module";
  const std::size_t at = line.find(marker);
  if (at == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(at + marker.size()));
  std::string version;
  if (!(rest >> version)) return std::nullopt;
  return version;
}

env_device probe_device(int index, std::map<std::string, std::string>& reasons) {
  const std::string at = "/devices/" + std::to_string(index) + "/";
  env_device info;
  info.m_index = index;
  cudaDeviceProp prop{};
  const cudaError_t status = cudaGetDeviceProperties(&prop, index);
  if (status != cudaSuccess) {
    info.m_name = "unknown";
    reasons[at + "name"] = "cudaGetDeviceProperties: " + cuda_error_text(status);
    return info;
  }
  info.m_name = prop.name;
  const std::string uuid = nvml::uuid_text(prop.uuid.bytes);
  if (!uuid.empty()) info.m_uuid = uuid;
  char bus_id[64] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index) == cudaSuccess) info.m_pci_bus_id = bus_id;
  info.m_compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  info.m_sm_count = prop.multiProcessorCount;
  info.m_global_memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  info.m_l2_bytes = prop.l2CacheSize;
  info.m_smem_per_block_optin_bytes = static_cast<std::int64_t>(prop.sharedMemPerBlockOptin);
  info.m_mem_bus_width_bits = prop.memoryBusWidth;

  const nvml::library& lib = nvml::library::get();
  std::string why;
  const std::optional<nvml::device_handle> device = lib.device(index, why);
  const auto clock = [&](std::optional<std::int64_t>& out, nvml::clock which, bool max, const char* key) {
    std::string reason = why;
    if (device) out = lib.clock_mhz(*device, which, max, reason);
    if (!out) reasons[at + key] = reason;
  };
  clock(info.m_sm_clock_mhz, nvml::clock::sm, false, "sm_clock_mhz");
  clock(info.m_sm_clock_max_mhz, nvml::clock::sm, true, "sm_clock_max_mhz");
  clock(info.m_mem_clock_mhz, nvml::clock::memory, false, "mem_clock_mhz");
  clock(info.m_mem_clock_max_mhz, nvml::clock::memory, true, "mem_clock_max_mhz");
  std::string reason = why;
  const std::optional<std::uint64_t> mask = device ? lib.clock_event_reasons(*device, reason) : std::nullopt;
  if (mask) {
    info.m_throttle_reasons = nvml::reason_names(*mask);
  } else {
    reasons[at + "throttle_reasons"] = reason;
  }
  return info;
}

// RmProfilingAdminOnly (NVIDIA driver parameter): 0 lets every user read
// performance counters, 1 only administrators. Root is what is checked here;
// a container may also grant CAP_SYS_ADMIN, which this does not detect.
void probe_counters(env_file& env) {
  std::ifstream file(k_params_file);
  if (!file) {
    env.m_counters_reason = std::string("cannot read ") + k_params_file;
    return;
  }
  std::string line;
  const std::string key = "RmProfilingAdminOnly:";
  while (std::getline(file, line)) {
    if (line.rfind(key, 0) != 0) continue;
    std::istringstream value(line.substr(key.size()));
    int admin_only = -1;
    value >> admin_only;
    const std::string source = std::string("RmProfilingAdminOnly=") + std::to_string(admin_only) + " in " + k_params_file;
    if (admin_only == 0) {
      env.m_counters_readable = true;
      env.m_counters_reason = source + ": readable by all users";
    } else if (admin_only == 1) {
      const bool root = geteuid() == 0;
      env.m_counters_readable = root;
      env.m_counters_reason = source + ": admin only; this process " +
                              (root ? std::string("runs as root") : "is not root (euid " + std::to_string(geteuid()) + ")");
    } else {
      env.m_counters_reason = "unexpected line in " + std::string(k_params_file) + ": " + line;
    }
    return;
  }
  env.m_counters_reason = std::string("no RmProfilingAdminOnly in ") + k_params_file;
}

}  // namespace

env_file probe_environment() {
  env_file env;
  env.m_hostname = hostname();
  env.m_timestamp_utc = utc_now();

  std::string why;
  env.m_driver_version = nvml::library::get().driver_version(why);
  if (!env.m_driver_version) env.m_driver_version = proc_driver_version();
  if (!env.m_driver_version) env.m_reasons["/driver_version"] = why + "; " + k_version_file + " not readable";

  int version = 0;
  cudaError_t status = cudaDriverGetVersion(&version);
  if (status == cudaSuccess && version > 0) {
    env.m_cuda_driver_api = version;
  } else {
    env.m_reasons["/cuda_driver_api"] =
        status != cudaSuccess ? "cudaDriverGetVersion: " + cuda_error_text(status) : "no CUDA driver installed";
  }
  status = cudaRuntimeGetVersion(&version);
  if (status == cudaSuccess) {
    env.m_cuda_runtime = version;
  } else {
    env.m_reasons["/cuda_runtime"] = "cudaRuntimeGetVersion: " + cuda_error_text(status);
  }

  int count = 0;
  status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    env.m_no_device_reason = "no CUDA device visible: " + cuda_error_text(status);
  } else if (count == 0) {
    env.m_no_device_reason = "no CUDA device visible: cudaGetDeviceCount returned 0";
  }
  for (int d = 0; status == cudaSuccess && d < count; ++d) env.m_devices.push_back(probe_device(d, env.m_reasons));

  probe_counters(env);
  if (!env.m_counters_readable) env.m_reasons["/counters_readable"] = env.m_counters_reason;
  return env;
}

}  // namespace kopt::cuda
