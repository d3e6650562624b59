// kernelopt.ceilings through its one type: what `kopt ceilings` writes is
// what kopt, the benchmark and the roofline read back; bad values, names
// and units are input errors naming file and field; % of ceiling is one
// computation.
#include <gtest/gtest.h>

#include <functional>

#include <nlohmann/json.hpp>

#include "formats/ceilings.hpp"
#include "formats/spec.hpp"

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

// As cuda/ceiling_probes fills it on a GPU.
ceilings_file measured_example() {
  ceilings_file r;
  r.m_device = "NVIDIA H100 80GB HBM3";
  r.m_date = "2026-11-21T06:00:00Z";
  ceilings_measurement& m = r.m_measurement.emplace();
  m.m_device_uuid = "GPU-00000000-0000-0000-0000-000000000000";
  m.m_compute_capability = "9.0";
  m.m_sm_count = 132;
  m.m_l2_bytes = 52428800;
  m.m_memory_bytes = 84934656000;
  m.m_cublas = "12.8.4";
  m.m_clocks = {{"before", {{"sm_mhz", 1980}}}, {"after", {{"sm_mhz", 1965}}}};
  m.m_mode = "full";
  ceiling copy;
  copy.m_name = "copy_bandwidth";
  copy.m_value = 3.0e12;
  copy.m_unit = "B/s";
  copy.m_method = "device-to-device copy";
  copy.m_source = "measured";
  copy.m_details = {{"sizes", json::array()}};
  ceiling tensor;
  tensor.m_name = "bf16_tensor";
  tensor.m_unit = "FLOP/s";
  tensor.m_reason = "cublasGemmEx: CUBLAS_STATUS_NOT_SUPPORTED";
  tensor.m_source = "measured";
  r.m_ceilings = {copy, tensor};
  return r;
}

json read_back(const json& doc) { return to_json(ceilings_from_json(json_reader(doc, "c.json"))); }

TEST(ceilings, measured_document_round_trips) {
  const json doc = to_json(measured_example());
  EXPECT_EQ(doc["kind"], "kernelopt.ceilings");
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["ceilings"]["copy_bandwidth"]["source"], "measured");
  EXPECT_TRUE(doc["ceilings"]["bf16_tensor"]["value"].is_null());
  EXPECT_EQ(doc["ceilings"]["bf16_tensor"]["reason"], "cublasGemmEx: CUBLAS_STATUS_NOT_SUPPORTED");
  EXPECT_EQ(read_back(doc), doc);

  const ceilings_file parsed = ceilings_from_json(json_reader(doc, "c.json"));
  ASSERT_TRUE(parsed.m_measurement);
  EXPECT_EQ(parsed.m_measurement->m_sm_count, 132);
  const ceiling* copy = parsed.find("copy_bandwidth");
  ASSERT_NE(copy, nullptr);
  EXPECT_TRUE(copy->measured());
  EXPECT_TRUE(copy->bandwidth());
  EXPECT_EQ(copy->m_value, 3.0e12);
  EXPECT_FALSE(parsed.find("bf16_tensor")->m_value);
}

// The committed files read and written back hold the same values (key
// order within an entry may differ: to_json writes one order).
TEST(ceilings, committed_files_round_trip) {
  for (const char* file : {"tests/kopt/data/softmax/ceilings.json", "tests/kopt/profile/data/h200/ceilings.json"}) {
    const std::string path = std::string(KOPT_SOURCE_DIR) + "/" + file;
    const json doc = read_json_file(path);
    EXPECT_EQ(nlohmann::json::parse(to_json(read_ceilings(path)).dump()), nlohmann::json::parse(doc.dump())) << file;
  }
}

TEST(ceilings, values_names_and_units_are_checked_on_read) {
  json doc = to_json(measured_example());
  doc["ceilings"]["copy_bandwidth"]["value"] = 0;
  EXPECT_EQ(message_of([&] { (void)read_back(doc); }), "c.json: /ceilings/copy_bandwidth/value: must be > 0, got 0");
  doc = to_json(measured_example());
  doc["ceilings"]["copy_bandwidth"]["unit"] = "GB/s";
  EXPECT_EQ(message_of([&] { (void)read_back(doc); }),
            "c.json: /ceilings/copy_bandwidth/unit: expected \"B/s\" or \"FLOP/s\", got \"GB/s\"");
  doc = to_json(measured_example());
  doc["ceilings"]["copy bandwidth"] = {{"value", 1.0}};
  EXPECT_NE(message_of([&] { (void)read_back(doc); })
                .find("c.json: /ceilings/copy bandwidth: \"copy bandwidth\" is not a ceiling name"),
            std::string::npos);
  doc = to_json(measured_example());
  doc["ceilings"]["fp32_fma"] = 1e13;
  EXPECT_EQ(message_of([&] { (void)read_back(doc); }),
            "c.json: /ceilings/fp32_fma: expected an object (value, unit, source, ...)");
  doc = to_json(measured_example());
  doc.erase("sm_count");
  EXPECT_EQ(message_of([&] { (void)read_back(doc); }), "c.json: /sm_count: missing");
  doc = to_json(measured_example());
  doc["kind"] = "kernelopt.env";
  EXPECT_EQ(message_of([&] { (void)read_back(doc); }),
            "c.json: /kind: expected \"kernelopt.ceilings\", got \"kernelopt.env\"");
}

TEST(ceilings, unknown_values_and_units_by_name) {
  const json doc = json::parse(R"({"schema_version": 1, "kind": "kernelopt.ceilings", "device": "d", "date": "t",
    "ceilings": {"dram_bandwidth": {"value": "unknown", "reason": "not published"}, "fp64": {"source": "spec"}}})");
  const ceilings_file c = ceilings_from_json(json_reader(doc, "c.json"));
  EXPECT_EQ(c.find("dram_bandwidth")->m_unit, "B/s");
  EXPECT_EQ(c.find("dram_bandwidth")->m_reason, "not published");
  EXPECT_EQ(c.find("fp64")->m_unit, "FLOP/s");
  EXPECT_EQ(c.find("fp64")->m_reason, "value unknown");
  std::string why;
  EXPECT_FALSE(value_in_target_units(*c.find("fp64"), why));
  EXPECT_EQ(why, "fp64 is unknown: value unknown");
}

// One computation for the benchmark (rates in FLOP/s and B/s) and for kopt
// record (--ceilings, from the row's TFLOP/s and GB/s).
TEST(ceilings, fractions_of_known_ceilings_by_unit) {
  ceilings_file c = measured_example();
  ceiling fma;
  fma.m_name = "fp32_fma";
  fma.m_value = 5.0e13;
  fma.m_unit = "FLOP/s";
  c.m_ceilings.push_back(fma);
  const ceiling_fractions both = fractions_of_ceilings(c, 1.0e13, 1.5e12);
  EXPECT_EQ(both, (ceiling_fractions{{"copy_bandwidth", 0.5}, {"fp32_fma", 0.2}}));
  EXPECT_EQ(fractions_of_ceilings(c, std::nullopt, 1.5e12), (ceiling_fractions{{"copy_bandwidth", 0.5}}));
  EXPECT_TRUE(fractions_of_ceilings(c, 0.0, std::nullopt).empty());
  EXPECT_EQ(fractions_to_json(std::nullopt), json(nullptr));
  EXPECT_EQ(fractions_from_json(json_reader(fractions_to_json(both), "r.json")), both);
}

TEST(ceilings, spec_rates_are_the_rate_values) {
  const json spec = json::parse(R"({"schema_version": 1, "kind": "kernelopt.spec", "device": "H", "match": [],
      "values": {
      "dram_bandwidth": {"value": 3.35e12, "unit": "B/s", "source": "x"},
      "fp64": {"value": "unknown", "unit": "FLOP/s", "reason": "r"},
      "memory_bytes": {"value": 80e9, "unit": "B", "source": "z"}}})");
  const std::vector<ceiling> rates = spec_from_json(json_reader(spec, "h.json")).rates();
  ASSERT_EQ(rates.size(), 1u);
  EXPECT_EQ(rates[0].m_name, "dram_bandwidth");
  EXPECT_EQ(rates[0].m_source, "x");
}

}  // namespace
}  // namespace kopt
