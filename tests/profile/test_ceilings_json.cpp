// kopt ceilings' document read back by its two readers: kopt's (record,
// TARGET peak.* / ceiling.*) and the benchmark's (% of ceiling). The
// measurement itself needs a GPU; this checks the format it writes.
#include <gtest/gtest.h>

#include <filesystem>

#include "bench/ceilings.hpp"
#include "cuda/ceilings.hpp"
#include "kopt/inputs/ceilings.hpp"

namespace {

kopt::cuda::ceilings_result example() {
  kopt::cuda::ceilings_result r;
  r.m_device_name = "NVIDIA H100 80GB HBM3";
  r.m_device_uuid = "GPU-00000000-0000-0000-0000-000000000000";
  r.m_cc_major = 9;
  r.m_sm_count = 132;
  kopt::cuda::measured_ceiling copy;
  copy.m_name = "copy_bandwidth";
  copy.m_value = 3.0e12;
  copy.m_unit = "B/s";
  copy.m_method = "device-to-device copy";
  kopt::cuda::measured_ceiling tensor;
  tensor.m_name = "bf16_tensor";
  tensor.m_unit = "FLOP/s";
  tensor.m_reason = "cublasGemmEx: CUBLAS_STATUS_NOT_SUPPORTED";
  r.m_ceilings = {copy, tensor};
  return r;
}

TEST(CeilingsDocument, ReadByKoptAndByTheBenchmark) {
  const kopt::json doc = kopt::cuda::to_json(example(), "2026-11-21T06:00:00Z");
  EXPECT_EQ(doc["kind"], "kernelopt.ceilings");
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["ceilings"]["copy_bandwidth"]["source"], "measured");
  EXPECT_TRUE(doc["ceilings"]["bf16_tensor"]["value"].is_null());

  const kopt::ceilings_file parsed = kopt::ceilings_from_json(doc, "ceilings.json");
  EXPECT_EQ(parsed.m_device, "NVIDIA H100 80GB HBM3");
  const kopt::ceiling* copy = parsed.find("copy_bandwidth");
  ASSERT_NE(copy, nullptr);
  EXPECT_TRUE(copy->measured());
  EXPECT_EQ(copy->m_value, 3.0e12);
  const kopt::ceiling* tensor = parsed.find("bf16_tensor");
  ASSERT_NE(tensor, nullptr);
  EXPECT_FALSE(tensor->m_value);
  EXPECT_EQ(tensor->m_reason, "cublasGemmEx: CUBLAS_STATUS_NOT_SUPPORTED");

  const std::filesystem::path file = std::filesystem::temp_directory_path() / "kopt_ceilings_format_test.json";
  kopt::write_json_atomic(file, doc);
  const kopt::bench::ceilings bench = kopt::bench::read_ceilings(file);
  std::filesystem::remove(file);
  ASSERT_EQ(bench.m_entries.count("copy_bandwidth"), 1u);
  EXPECT_TRUE(bench.m_entries.at("copy_bandwidth").m_bandwidth);
  EXPECT_EQ(bench.m_entries.count("bf16_tensor"), 0u);  // unknown: left out
}

}  // namespace
