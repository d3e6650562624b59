// What the machine is: GPU, driver, CUDA, clocks, and whether performance
// counters can be read. Used by `kopt env` and recorded with every
// benchmark. A value that cannot be read is std::nullopt, written `unknown`
// with the reason, never guessed.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"

namespace kopt::cuda {

struct device_info {
  int m_index = 0;
  std::string m_name;
  std::string m_uuid;
  std::string m_pci_bus_id;
  int m_cc_major = 0;
  int m_cc_minor = 0;
  int m_sm_count = 0;
  std::size_t m_global_memory_bytes = 0;
  std::size_t m_l2_bytes = 0;
  std::size_t m_smem_per_block_optin_bytes = 0;
  std::optional<int> m_sm_clock_mhz;        // current, from NVML
  std::optional<int> m_sm_clock_max_mhz;    // max, from NVML
  std::optional<int> m_mem_clock_mhz;       // current, from NVML
  std::optional<int> m_mem_clock_max_mhz;
  std::optional<int> m_mem_bus_width_bits;
  std::vector<std::string> m_throttle_reasons;  // NVML clock event reasons, active now
};

struct environment {
  std::optional<std::string> m_driver_version;   // "580.159.04" (NVML) or from cudaDriverGetVersion
  std::optional<int> m_cuda_driver_api;          // cudaDriverGetVersion, e.g. 13000
  std::optional<int> m_cuda_runtime;             // cudaRuntimeGetVersion
  std::vector<device_info> m_devices;            // empty: none visible
  std::string m_no_device_reason;                // why m_devices is empty
  std::optional<bool> m_counters_readable;       // perf counters for non-admin users
  std::string m_counters_reason;                 // how that was determined
  std::string m_hostname;
  std::string m_timestamp_utc;                   // ISO 8601
  // Why a value is unknown, keyed by its JSON pointer in to_json
  // ("/driver_version", "/devices/0/sm_clock_mhz").
  std::map<std::string, std::string> m_reasons;
};

[[nodiscard]] environment probe_environment();
[[nodiscard]] json to_json(const environment& env);  // kind "kernelopt.env"

}  // namespace kopt::cuda
