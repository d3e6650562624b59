// kernelopt.correctness through its one type: what the test writes reads
// back the same; statuses and counts are checked where read.
#include <gtest/gtest.h>

#include <functional>

#include <nlohmann/json.hpp>

#include "formats/correctness_result.hpp"

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

correctness_result example() {
  correctness_result r;
  r.m_kernel = "softmax";
  r.m_variant = "v2";
  r.m_backend = "host";
  r.m_device = "host (x86_64)";
  r.m_status = "fail";
  r.m_seeds = {1, 2};
  r.m_tolerance = declared_tolerance{1e-4, 1e-4, std::nullopt, "TOLERANCE"};
  trial_record t;
  t.m_shape = "rows=8,cols=8";
  t.m_seed = 2;
  t.m_status = "fail";
  output_result o;
  o.m_arg = "y";
  o.m_dtype = "f32";
  o.m_elements = 64;
  o.m_rtol = 1e-4;
  o.m_atol = 1e-4;
  o.m_max_abs = 0.5;
  o.m_max_rel = std::nullopt;  // not finite
  o.m_rel_l2 = 0.01;
  o.m_mismatches = 3;
  o.m_first_mismatch = first_mismatch{5, {0, 5}, std::nullopt, 0.25};
  o.m_passed = false;
  t.m_outputs = {o};
  t.m_phases = trial_phases{0.25, 1.5, 0.125, 0.0625, 0.5};
  r.m_trials = {t};
  return r;
}

TEST(correctness_result, written_and_read_back) {
  const json doc = to_json(example());
  EXPECT_EQ(doc["kind"], "kernelopt.correctness");
  EXPECT_TRUE(doc["trials"][0]["outputs"][0]["first_mismatch"]["got"].is_null());
  EXPECT_TRUE(doc["trials"][0]["error"].is_null());
  const correctness_result back = correctness_result_from_json(json_reader(doc, "c.json"));
  EXPECT_EQ(to_json(back), doc);
  EXPECT_EQ(back.m_trials[0].m_outputs[0].m_first_mismatch->m_index, (std::vector<std::int64_t>{0, 5}));
  ASSERT_TRUE(back.m_trials[0].m_phases);
  EXPECT_EQ(back.m_trials[0].m_phases->m_reference_s, 1.5);
}

TEST(correctness_result, committed_files_round_trip) {
  for (const char* file : {"tests/kopt/data/softmax/results/correct.v2.json",
                           "tests/kopt/data/softmax/results/correct.v1.skipped.json",
                           "tests/kopt/data/h200/softmax_correct_v1.json"}) {
    const std::string path = std::string(KOPT_SOURCE_DIR) + "/" + file;
    const json doc = read_json_file(path);
    json written = to_json(correctness_result_from_json(json_reader(doc, path)));
    // Files written before gpu / claim were recorded read them as null.
    for (const char* key : {"gpu", "claim"}) {
      if (!doc.contains(key)) written.erase(key);
    }
    EXPECT_EQ(nlohmann::json::parse(written.dump()), nlohmann::json::parse(doc.dump())) << file;
  }
}

TEST(correctness_result, statuses_and_counts_are_checked) {
  json doc = to_json(example());
  doc["status"] = "maybe";
  EXPECT_EQ(message_of([&] { (void)correctness_result_from_json(json_reader(doc, "c.json")); }),
            "c.json: /status: expected \"pass\", \"fail\" or \"skipped\", got \"maybe\"");
  doc = to_json(example());
  doc["trials"][0]["outputs"][0]["mismatches"] = -1;
  EXPECT_NE(message_of([&] { (void)correctness_result_from_json(json_reader(doc, "c.json")); })
                .find("c.json: /trials/0/outputs/0/mismatches:"),
            std::string::npos);
  doc = to_json(example());
  doc["trials"][0]["outputs"][0].erase("canary");
  EXPECT_EQ(message_of([&] { (void)correctness_result_from_json(json_reader(doc, "c.json")); }),
            "c.json: /trials/0/outputs/0/canary: missing");
  doc = to_json(example());
  doc["trials"][0]["phases_s"]["check"] = -0.5;
  EXPECT_EQ(message_of([&] { (void)correctness_result_from_json(json_reader(doc, "c.json")); }),
            "c.json: /trials/0/phases_s/check: must be >= 0, got -0.5");
  doc = to_json(example());
  doc["trials"][0]["phases_s"].erase("load");
  EXPECT_EQ(message_of([&] { (void)correctness_result_from_json(json_reader(doc, "c.json")); }),
            "c.json: /trials/0/phases_s/load: missing");
  doc = to_json(example());
  doc["schema_version"] = 2;
  EXPECT_EQ(message_of([&] { (void)correctness_result_from_json(json_reader(doc, "c.json")); }),
            "c.json: /schema_version: 2 is newer than this kopt reads (1): update KernelOpt");
}

}  // namespace
}  // namespace kopt
