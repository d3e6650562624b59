#include "formats/gpu.hpp"

namespace kopt {
namespace {

const std::vector<field_doc> k_gpu_fields = {
    {"index", "integer", "the CUDA ordinal as the process saw it"},
    {"name", "string", "`NVIDIA H100 80GB HBM3`, or `unknown`"},
    {"uuid", "string", "`GPU-...`, or `unknown`: names the board whatever `CUDA_VISIBLE_DEVICES` renumbers"},
    {"pci_bus_id", "string", "`0000:1B:00.0`, or `unknown`"},
    {"ctest_allocation", "string | null", "CTest's `CTEST_RESOURCE_GROUP_0_GPUS` (`id:1,slots:1`); `null` without one"},
};

const std::vector<field_doc> k_claim_fields = {
    {"mode", "string", "`shared` (correctness) or `exclusive` (timing)"},
    {"lock", "string", "the lock file (docs/multi-gpu.md)"},
    {"waited_s", "number", "how long another process held the GPU first"},
    {"granted_unix_ns", "integer", "when the lock was granted (Unix time, ns)"},
};

std::optional<std::string> optional_string(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_string();
}

void expect_object(const json_reader& node, const char* what) {
  if (!node.raw().is_object()) node.fail(std::string("expected an object (") + what + ") or null");
}

}  // namespace

json to_json(const gpu_info& gpu) {
  json j = {{"index", gpu.m_index}};
  if (gpu.m_name) j["name"] = *gpu.m_name;
  if (gpu.m_uuid) j["uuid"] = *gpu.m_uuid;
  if (gpu.m_pci_bus_id) j["pci_bus_id"] = *gpu.m_pci_bus_id;
  j["ctest_allocation"] = gpu.m_ctest_allocation ? json(*gpu.m_ctest_allocation) : json(nullptr);
  return j;
}

json to_json(const gpu_claim_info& claim) {
  return {{"mode", claim.m_mode},
          {"lock", claim.m_lock},
          {"waited_s", claim.m_waited_s},
          {"granted_unix_ns", claim.m_granted_unix_ns}};
}

json to_json(const std::optional<gpu_info>& gpu) { return gpu ? to_json(*gpu) : json(nullptr); }
json to_json(const std::optional<gpu_claim_info>& claim) { return claim ? to_json(*claim) : json(nullptr); }

std::optional<gpu_info> gpu_info_from_json(const json_reader& node) {
  if (node.is_null()) return std::nullopt;
  expect_object(node, "index, uuid, pci_bus_id, ...");
  gpu_info gpu;
  gpu.m_index = node.at("index").as_non_negative_integer();
  gpu.m_name = optional_string(node, "name");
  gpu.m_uuid = optional_string(node, "uuid");
  gpu.m_pci_bus_id = optional_string(node, "pci_bus_id");
  gpu.m_ctest_allocation = optional_string(node, "ctest_allocation");
  return gpu;
}

std::optional<gpu_claim_info> gpu_claim_from_json(const json_reader& node) {
  if (node.is_null()) return std::nullopt;
  expect_object(node, "mode, lock, waited_s, granted_unix_ns");
  gpu_claim_info claim;
  claim.m_mode = node.at("mode").as_string();
  if (claim.m_mode != "shared" && claim.m_mode != "exclusive") {
    node.at("mode").fail("expected \"shared\" or \"exclusive\", got \"" + shorten(claim.m_mode) + "\"");
  }
  claim.m_lock = node.at("lock").as_string();
  claim.m_waited_s = node.at("waited_s").as_non_negative();
  claim.m_granted_unix_ns = node.at("granted_unix_ns").as_non_negative_integer();
  return claim;
}

std::vector<format_table> gpu_tables() {
  return {{"gpu (correctness result, kopt.gpu, record timing.gpu)", k_gpu_fields},
          {"claim (correctness result, kopt.claim)", k_claim_fields}};
}

}  // namespace kopt
