// The `gpu` and `claim` objects (formats/gpu.hpp) through their one type:
// what the CUDA backend writes reads back unchanged; a hand-written object
// with fewer keys reads and writes back without inventing any; a value of
// the wrong type is an input error naming the file and the JSON pointer.
#include <gtest/gtest.h>

#include <functional>

#include "formats/bench_result.hpp"
#include "formats/gpu.hpp"

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

TEST(gpu, probed_identity_and_claim_read_back_unchanged) {
  gpu_info gpu;
  gpu.m_index = 1;
  gpu.m_name = "NVIDIA H100 80GB HBM3";
  gpu.m_uuid = "GPU-3f9c";
  gpu.m_pci_bus_id = "0000:1B:00.0";
  gpu.m_ctest_allocation = "id:1,slots:1";
  const json doc = to_json(gpu);
  EXPECT_EQ(doc.dump(),
            R"({"index":1,"name":"NVIDIA H100 80GB HBM3","uuid":"GPU-3f9c","pci_bus_id":"0000:1B:00.0",)"
            R"("ctest_allocation":"id:1,slots:1"})");
  EXPECT_EQ(to_json(gpu_info_from_json(json_reader(doc, "bench.json", "/kopt/gpu"))), doc);
  const gpu_claim_info claim{"exclusive", "/tmp/kernelopt-gpu-GPU-3f9c.lock", 0.25, 1700000000000000000};
  const json c = to_json(claim);
  EXPECT_EQ(to_json(gpu_claim_from_json(json_reader(c, "bench.json", "/kopt/claim"))), c);
}

TEST(gpu, null_is_none_and_fewer_keys_stay_fewer) {
  const json null_doc = nullptr;
  EXPECT_FALSE(gpu_info_from_json(json_reader(null_doc, "f.json", "/kopt/gpu")).has_value());
  EXPECT_FALSE(gpu_claim_from_json(json_reader(null_doc, "f.json", "/kopt/claim")).has_value());
  const json partial = {{"index", 0}, {"uuid", "GPU-0"}, {"ctest_allocation", nullptr}};
  const std::optional<gpu_info> gpu = gpu_info_from_json(json_reader(partial, "f.json", "/kopt/gpu"));
  ASSERT_TRUE(gpu.has_value());
  EXPECT_EQ(gpu->uuid_or_empty(), "GPU-0");
  EXPECT_FALSE(gpu->m_name.has_value());
  EXPECT_EQ(to_json(*gpu), partial);
}

TEST(gpu, wrong_types_name_file_and_pointer) {
  const json not_object = "GPU-0";
  EXPECT_EQ(message_of([&] { (void)gpu_info_from_json(json_reader(not_object, "b.json", "/kopt/gpu")); }),
            "b.json: /kopt/gpu: expected an object (index, uuid, pci_bus_id, ...) or null");
  const json bad_uuid = {{"index", 0}, {"uuid", 7}};
  EXPECT_NE(message_of([&] { (void)gpu_info_from_json(json_reader(bad_uuid, "b.json", "/kopt/gpu")); })
                .find("b.json: /kopt/gpu/uuid: "),
            std::string::npos);
  const json bad_mode = {{"mode", "both"}, {"lock", "/tmp/l"}, {"waited_s", 0}, {"granted_unix_ns", 1}};
  EXPECT_EQ(message_of([&] { (void)gpu_claim_from_json(json_reader(bad_mode, "b.json", "/kopt/claim")); }),
            "b.json: /kopt/claim/mode: expected \"shared\" or \"exclusive\", got \"both\"");
  // Inside a benchmark file, the pointer is the file's.
  const json bench = {{"kopt", {{"schema_version", 1}, {"kind", "kernelopt.bench"}, {"kernel", "k"}, {"gpu", {{"uuid", "GPU-0"}}}}}, {"benchmarks", json::array()}};
  EXPECT_EQ(message_of([&] { (void)bench_result_from_json(json_reader(bench, "bench.json")); }),
            "bench.json: /kopt/gpu/index: missing");
}

}  // namespace
}  // namespace kopt
