// The machine (`kernelopt.env`): the one type its writers and readers
// share. Written by `kopt env` and `kopt optimize` (cuda/environment_probe
// fills it in; built without CUDA, kopt/run/environment.cpp does, every
// CUDA-side value unknown for that one reason); read by `kopt record
// --env`, which embeds it in the record, and by the record's reader.
// A value that cannot be read is nullopt, written "unknown", and
// m_reasons says why, keyed by the value's JSON pointer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"

namespace kopt {

inline constexpr const char* k_env_kind = "kernelopt.env";
inline constexpr int k_env_schema_version = 1;

// Limits on a read document (beyond read_json_file's size and depth): no
// machine has more devices, and each list is one entry per NVML reason.
inline constexpr std::size_t k_max_env_devices = 256;
inline constexpr std::size_t k_max_env_list = 1024;

struct env_device {
  std::int64_t m_index = 0;  // CUDA ordinal
  std::string m_name = "unknown";
  std::string m_uuid = "unknown";        // "GPU-..."
  std::string m_pci_bus_id = "unknown";  // "00000000:19:00.0"
  std::string m_compute_capability;      // "9.0"
  std::int64_t m_sm_count = 0;
  std::int64_t m_global_memory_bytes = 0;
  std::int64_t m_l2_bytes = 0;
  std::int64_t m_smem_per_block_optin_bytes = 0;
  std::optional<std::int64_t> m_sm_clock_mhz;      // current, from NVML
  std::optional<std::int64_t> m_sm_clock_max_mhz;  // max, from NVML
  std::optional<std::int64_t> m_mem_clock_mhz;     // current, from NVML
  std::optional<std::int64_t> m_mem_clock_max_mhz;
  std::optional<std::int64_t> m_mem_bus_width_bits;
  std::vector<std::string> m_throttle_reasons;  // NVML clock event reasons, active at probe time
};

struct env_file {
  std::string m_hostname = "unknown";
  std::string m_timestamp_utc;                    // ISO 8601
  std::optional<std::string> m_driver_version;    // "580.159.04"
  std::optional<std::int64_t> m_cuda_driver_api;  // cudaDriverGetVersion, e.g. 13000
  std::optional<std::int64_t> m_cuda_runtime;     // cudaRuntimeGetVersion
  std::vector<env_device> m_devices;              // empty: none visible
  std::optional<std::string> m_no_device_reason;  // why m_devices is empty; nullopt (null) when it is not
  std::optional<bool> m_counters_readable;        // perf counters for non-admin users
  std::string m_counters_reason;                  // how that was determined
  // Why a value is unknown, keyed by its JSON pointer ("/driver_version",
  // "/devices/0/sm_clock_mhz").
  std::map<std::string, std::string> m_reasons;
};

[[nodiscard]] json to_json(const env_file& env);
// `node` is the document (or a record's embedded copy): kind and
// schema_version checked, every field of its type, counts >= 0, at most
// k_max_env_devices devices. Throws format_error naming the file and the
// JSON pointer of the field.
[[nodiscard]] env_file env_from_json(const json_reader& node);
[[nodiscard]] env_file read_env(const std::filesystem::path& path);

// Tables (docs/formats.md): the document and a device.
[[nodiscard]] std::vector<format_table> env_tables();

}  // namespace kopt
