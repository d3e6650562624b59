// kernelopt.env through its one type: what `kopt env` writes is what kopt
// record reads back and embeds; a value of the wrong type is an input error
// naming file and field; every env document stored in this repository (the
// test data and the records measured on GPU machines) reads and writes back
// unchanged.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "formats/env.hpp"

namespace kopt {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const format_error& e) {
    return e.what();
  }
  return "no error";
}

// As cuda/environment_probe fills it on a GPU machine.
env_file probed_example() {
  env_file env;
  env.m_hostname = "gpu-node-3";
  env.m_timestamp_utc = "2026-11-24T05:00:00Z";
  env.m_driver_version = "580.95.05";
  env.m_cuda_driver_api = 13000;
  env.m_cuda_runtime = 12080;
  env_device& d = env.m_devices.emplace_back();
  d.m_name = "NVIDIA H100 80GB HBM3";
  d.m_uuid = "GPU-00000000-0000-0000-0000-000000000000";
  d.m_pci_bus_id = "00000000:19:00.0";
  d.m_compute_capability = "9.0";
  d.m_sm_count = 132;
  d.m_global_memory_bytes = 84934656000;
  d.m_l2_bytes = 52428800;
  d.m_smem_per_block_optin_bytes = 232448;
  d.m_sm_clock_mhz = 1980;
  d.m_sm_clock_max_mhz = 1980;
  d.m_mem_clock_mhz = 2619;
  d.m_mem_bus_width_bits = 5120;
  d.m_throttle_reasons = {"gpu_idle"};
  env.m_reasons["/devices/0/mem_clock_max_mhz"] = "nvmlDeviceGetMaxClockInfo: Not Supported";
  env.m_counters_readable = true;
  env.m_counters_reason = "RmProfilingAdminOnly=0 in /proc/driver/nvidia/params: readable by all users";
  return env;
}

json read_back(const json& doc) { return to_json(env_from_json(json_reader(doc, "env.json"))); }

TEST(env, probed_document_round_trips) {
  const json doc = to_json(probed_example());
  EXPECT_EQ(doc["kind"], "kernelopt.env");
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_TRUE(doc["no_device_reason"].is_null());
  EXPECT_EQ(doc["devices"][0]["mem_clock_max_mhz"], "unknown");
  EXPECT_EQ(doc["devices"][0]["sm_clock_mhz"], 1980);
  EXPECT_EQ(read_back(doc).dump(), doc.dump());
}

TEST(env, document_without_a_device_round_trips) {
  env_file env;
  env.m_timestamp_utc = "2026-11-24T05:00:00Z";
  env.m_no_device_reason = "KernelOpt built without CUDA";
  env.m_counters_reason = "KernelOpt built without CUDA";
  const json doc = to_json(env);
  EXPECT_EQ(doc["driver_version"], "unknown");
  EXPECT_EQ(doc["cuda_runtime"], "unknown");
  EXPECT_EQ(doc["counters_readable"], "unknown");
  EXPECT_EQ(doc["no_device_reason"], "KernelOpt built without CUDA");
  const env_file back = env_from_json(json_reader(doc, "env.json"));
  EXPECT_FALSE(back.m_driver_version);
  EXPECT_FALSE(back.m_counters_readable);
  EXPECT_EQ(to_json(back).dump(), doc.dump());
}

TEST(env, a_field_of_the_wrong_type_names_file_and_field) {
  json doc = to_json(probed_example());
  doc["devices"][0]["sm_count"] = "many";
  EXPECT_EQ(message_of([&] { (void)read_back(doc); }).rfind("env.json: /devices/0/sm_count: ", 0), 0u)
      << message_of([&] { (void)read_back(doc); });

  doc = to_json(probed_example());
  doc["cuda_runtime"] = true;
  EXPECT_NE(
      message_of([&] { (void)read_back(doc); }).find("env.json: /cuda_runtime: expected an integer or \"unknown\""),
      std::string::npos)
      << message_of([&] { (void)read_back(doc); });

  doc = to_json(probed_example());
  doc["counters_readable"] = "yes";
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("env.json: /counters_readable: expected a boolean"),
            std::string::npos);

  doc = to_json(probed_example());
  doc["devices"][0]["throttle_reasons"] = json::array({1});
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("env.json: /devices/0/throttle_reasons/0: "),
            std::string::npos);

  doc = to_json(probed_example());
  doc["devices"][0]["l2_bytes"] = -1;
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("env.json: /devices/0/l2_bytes: "), std::string::npos);

  doc = to_json(probed_example());
  doc.erase("hostname");
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("env.json: /hostname: missing"), std::string::npos)
      << message_of([&] { (void)read_back(doc); });

  doc = to_json(probed_example());
  doc["reasons"] = json::array();
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("env.json: /reasons: "), std::string::npos);
}

TEST(env, kind_schema_version_and_sizes_are_checked) {
  json doc = to_json(probed_example());
  doc["kind"] = "kernelopt.static";
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("/kind: expected \"kernelopt.env\""), std::string::npos);
  doc = to_json(probed_example());
  doc["schema_version"] = 2;
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("/schema_version: 2 is newer"), std::string::npos);
  doc = to_json(probed_example());
  for (std::size_t i = 0; i < k_max_env_devices; ++i) doc["devices"].push_back(doc["devices"][0]);
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("/devices: more than 256 devices"), std::string::npos);
}

// Every kernelopt.env in the repository, alone or embedded in a record.
TEST(env, every_stored_document_reads_and_writes_back_unchanged) {
  int seen = 0;
  for (const char* dir : {"/tests", "/example_kernels"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(KOPT_SOURCE_DIR) + dir)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
      json doc;
      try {
        doc = read_json_file(entry.path());
      } catch (const format_error&) {
        continue;  // deliberately malformed inputs of other tests
      }
      if (!doc.is_object()) continue;
      const json* env = nullptr;
      if (doc.value("kind", "") == "kernelopt.env") env = &doc;
      if (doc.value("kind", "") == "kernelopt.record" && doc["env"].contains("kind")) env = &doc["env"];
      if (env == nullptr) continue;
      ++seen;
      SCOPED_TRACE(entry.path().string());
      EXPECT_EQ(to_json(env_from_json(json_reader(*env, entry.path().string()))).dump(), env->dump());
    }
  }
  EXPECT_GT(seen, 10);
}

}  // namespace
}  // namespace kopt
