#include "formats/env.hpp"

namespace kopt {
namespace {

const std::vector<field_doc> k_env_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.env`"},
    {"hostname", "string", "the machine's host name, or `unknown`"},
    {"timestamp_utc", "string", "when probed (ISO 8601, UTC)"},
    {"driver_version", "string", "the NVIDIA driver (`580.95.05`), or `unknown`"},
    {"cuda_driver_api", "integer | \"unknown\"", "`cudaDriverGetVersion` (`13000`)"},
    {"cuda_runtime", "integer | \"unknown\"", "`cudaRuntimeGetVersion`"},
    {"devices", "array", "every visible CUDA device (at most 256)"},
    {"no_device_reason", "string | null", "why `devices` is empty; `null` when it is not"},
    {"counters_readable", "boolean | \"unknown\"", "whether a non-admin user may read performance counters"},
    {"counters_reason", "string", "how `counters_readable` was determined"},
    {"reasons", "object", "why a value is `unknown`, keyed by its JSON pointer (`/devices/0/sm_clock_mhz`)"},
};

const std::vector<field_doc> k_device_fields = {
    {"index", "integer", "the CUDA ordinal"},
    {"name", "string", "`NVIDIA H100 80GB HBM3`, or `unknown`"},
    {"uuid", "string", "`GPU-...`, or `unknown`"},
    {"pci_bus_id", "string", "`00000000:19:00.0`, or `unknown`"},
    {"compute_capability", "string", "`9.0`"},
    {"sm_count", "integer", "multiprocessors"},
    {"global_memory_bytes", "integer", "device memory"},
    {"l2_bytes", "integer", "L2 cache size"},
    {"smem_per_block_optin_bytes", "integer", "shared memory per block with opt-in"},
    {"sm_clock_mhz", "integer | \"unknown\"", "current SM clock (NVML)"},
    {"sm_clock_max_mhz", "integer | \"unknown\"", "maximum SM clock (NVML)"},
    {"mem_clock_mhz", "integer | \"unknown\"", "current memory clock (NVML)"},
    {"mem_clock_max_mhz", "integer | \"unknown\"", "maximum memory clock (NVML)"},
    {"mem_bus_width_bits", "integer | \"unknown\"", "memory bus width"},
    {"throttle_reasons", "array", "NVML clock event reasons active at probe time"},
};

json integer_or_unknown(const std::optional<std::int64_t>& value) { return value ? json(*value) : json("unknown"); }

bool is_unknown(const json_reader& node) {
  return node.raw().is_string() && node.raw().get_ref<const std::string&>() == "unknown";
}

std::optional<std::int64_t> read_integer_or_unknown(const json_reader& node) {
  if (is_unknown(node)) return std::nullopt;
  if (!node.raw().is_number()) node.fail("expected an integer or \"unknown\"");
  return node.as_non_negative_integer();
}

std::vector<std::string> read_strings(const json_reader& node) {
  const std::size_t count = node.size();
  if (count > k_max_env_list) node.fail("more than " + std::to_string(k_max_env_list) + " entries");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(node.at(i).as_string());
  return out;
}

json to_json(const env_device& d) {
  return {{"index", d.m_index},
          {"name", d.m_name},
          {"uuid", d.m_uuid},
          {"pci_bus_id", d.m_pci_bus_id},
          {"compute_capability", d.m_compute_capability},
          {"sm_count", d.m_sm_count},
          {"global_memory_bytes", d.m_global_memory_bytes},
          {"l2_bytes", d.m_l2_bytes},
          {"smem_per_block_optin_bytes", d.m_smem_per_block_optin_bytes},
          {"sm_clock_mhz", integer_or_unknown(d.m_sm_clock_mhz)},
          {"sm_clock_max_mhz", integer_or_unknown(d.m_sm_clock_max_mhz)},
          {"mem_clock_mhz", integer_or_unknown(d.m_mem_clock_mhz)},
          {"mem_clock_max_mhz", integer_or_unknown(d.m_mem_clock_max_mhz)},
          {"mem_bus_width_bits", integer_or_unknown(d.m_mem_bus_width_bits)},
          {"throttle_reasons", d.m_throttle_reasons}};
}

env_device device_from_json(const json_reader& node) {
  if (!node.raw().is_object()) node.fail("expected an object (index, name, uuid, ...)");
  env_device d;
  d.m_index = node.at("index").as_non_negative_integer();
  d.m_name = node.at("name").as_string();
  d.m_uuid = node.at("uuid").as_string();
  d.m_pci_bus_id = node.at("pci_bus_id").as_string();
  d.m_compute_capability = node.at("compute_capability").as_string();
  d.m_sm_count = node.at("sm_count").as_non_negative_integer();
  d.m_global_memory_bytes = node.at("global_memory_bytes").as_non_negative_integer();
  d.m_l2_bytes = node.at("l2_bytes").as_non_negative_integer();
  d.m_smem_per_block_optin_bytes = node.at("smem_per_block_optin_bytes").as_non_negative_integer();
  d.m_sm_clock_mhz = read_integer_or_unknown(node.at("sm_clock_mhz"));
  d.m_sm_clock_max_mhz = read_integer_or_unknown(node.at("sm_clock_max_mhz"));
  d.m_mem_clock_mhz = read_integer_or_unknown(node.at("mem_clock_mhz"));
  d.m_mem_clock_max_mhz = read_integer_or_unknown(node.at("mem_clock_max_mhz"));
  d.m_mem_bus_width_bits = read_integer_or_unknown(node.at("mem_bus_width_bits"));
  d.m_throttle_reasons = read_strings(node.at("throttle_reasons"));
  return d;
}

}  // namespace

json to_json(const env_file& env) {
  json devices = json::array();
  for (const env_device& d : env.m_devices) devices.push_back(to_json(d));
  json reasons = json::object();
  for (const auto& [key, reason] : env.m_reasons) reasons[key] = reason;
  return {{"schema_version", k_env_schema_version},
          {"kind", k_env_kind},
          {"hostname", env.m_hostname},
          {"timestamp_utc", env.m_timestamp_utc},
          {"driver_version", env.m_driver_version ? json(*env.m_driver_version) : json("unknown")},
          {"cuda_driver_api", integer_or_unknown(env.m_cuda_driver_api)},
          {"cuda_runtime", integer_or_unknown(env.m_cuda_runtime)},
          {"devices", devices},
          {"no_device_reason", env.m_no_device_reason ? json(*env.m_no_device_reason) : json(nullptr)},
          {"counters_readable", env.m_counters_readable ? json(*env.m_counters_readable) : json("unknown")},
          {"counters_reason", env.m_counters_reason},
          {"reasons", reasons}};
}

env_file env_from_json(const json_reader& node) {
  (void)check_kind(node, k_env_kind, k_env_schema_version);
  env_file env;
  env.m_hostname = node.at("hostname").as_string();
  env.m_timestamp_utc = node.at("timestamp_utc").as_string();
  const std::string driver = node.at("driver_version").as_string();
  if (driver != "unknown") env.m_driver_version = driver;
  env.m_cuda_driver_api = read_integer_or_unknown(node.at("cuda_driver_api"));
  env.m_cuda_runtime = read_integer_or_unknown(node.at("cuda_runtime"));
  const json_reader devices = node.at("devices");
  const std::size_t count = devices.size();
  if (count > k_max_env_devices) devices.fail("more than " + std::to_string(k_max_env_devices) + " devices");
  for (std::size_t i = 0; i < count; ++i) env.m_devices.push_back(device_from_json(devices.at(i)));
  // Required, null when there are devices.
  const json_reader no_device = node.at("no_device_reason");
  if (!no_device.is_null()) env.m_no_device_reason = no_device.as_string();
  const json_reader readable = node.at("counters_readable");
  if (!is_unknown(readable)) {
    if (!readable.raw().is_boolean()) readable.fail("expected a boolean or \"unknown\"");
    env.m_counters_readable = readable.as_bool();
  }
  env.m_counters_reason = node.at("counters_reason").as_string();
  const json_reader reasons = node.at("reasons");
  if (!reasons.raw().is_object()) reasons.fail("expected an object of reasons by JSON pointer");
  if (reasons.raw().size() > k_max_env_list) reasons.fail("more than " + std::to_string(k_max_env_list) + " entries");
  for (const auto& item : reasons.raw().items()) env.m_reasons[item.key()] = reasons.at(item.key()).as_string();
  return env;
}

env_file read_env(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  return env_from_json(json_reader(doc, path.string()));
}

std::vector<format_table> env_tables() {
  return {{"kernelopt.env", k_env_fields}, {"kernelopt.env: devices[]", k_device_fields}};
}

}  // namespace kopt
