// The gate's rules, one by one, on variations of the golden campaign.
#include <gtest/gtest.h>

#include "core/json_io.hpp"
#include "kopt/gate.hpp"
#include "kopt/record.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(gate_rules, hypothesis_needs_a_number_or_a_direction_word) {
  EXPECT_TRUE(hypothesis_states_movement("Tile A and B: 16x fewer DRAM reads, expect ~5x"));
  EXPECT_TRUE(hypothesis_states_movement("expect 30% less time"));
  EXPECT_TRUE(hypothesis_states_movement("Fewer barriers"));
  EXPECT_TRUE(hypothesis_states_movement("halves the shared-memory traffic"));
  EXPECT_TRUE(hypothesis_states_movement("2x"));
  EXPECT_FALSE(hypothesis_states_movement("unroll the reduction loop"));
  EXPECT_FALSE(hypothesis_states_movement("use fp16 like v1"));  // digits inside names are no number
  EXPECT_FALSE(hypothesis_states_movement("try sm_90 features"));
  EXPECT_FALSE(hypothesis_states_movement(""));
  EXPECT_FALSE(hypothesis_states_movement("cutlass-style tiling"));  // "cut" only as a whole word
}

class gate_test : public ::testing::Test {
 protected:
  run_result gate(const std::string& variant) {
    return run_kopt({"gate", "--manifest", c.manifest(), "--variant", variant});
  }
  void patch_json(const std::string& file, const std::function<void(json&)>& change) {
    json doc = read_json_file(c.path(file));
    change(doc);
    write_text(c.path(file), doc.dump(2));
  }
  scratch_case c;
};

TEST_F(gate_test, changed_source_is_rejected) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  EXPECT_EQ(gate("v4").m_code, 0);
  write_text(c.path("src/v4_warp_per_row.cpp"), "// edited after the record\n");
  const run_result r = gate("v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "FAIL  source      sources changed since the record")) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "note: the record says ACCEPT")) << r.m_out;
  fs::remove(c.path("src/v4_warp_per_row.cpp"));
  EXPECT_TRUE(contains(gate("v4").m_out, "cannot hash the current sources")) << gate("v4").m_out;
}

TEST_F(gate_test, masked_parent_and_best_so_far) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  ASSERT_EQ(run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v1", "--reason",
                      "timed on a throttled GPU"})
                .m_code,
            0);
  const run_result r = gate("v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "parent v1 is masked (timed on a throttled GPU)")) << r.m_out;
  // Best-so-far falls back to v0, which v4's bench file did not time.
  EXPECT_TRUE(contains(r.m_out, "best-so-far v0 was not timed in the same benchmark file")) << r.m_out;
  const run_result masked = gate("v1");
  EXPECT_TRUE(contains(masked.m_out, "FAIL  masked      masked: timed on a throttled GPU")) << masked.m_out;
}

TEST_F(gate_test, loop_order_and_missing_parent) {
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  const run_result r = record_variant(c, "v2");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(
      contains(r.m_out, "v1 has no record, but v2 comes after in declaration order: record them first"))
      << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "parent v1 has no record")) << r.m_out;
}

TEST_F(gate_test, settings_changed_since_the_parent) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  patch_json(k_manifest, [](json& m) { m["seeds"] = {1, 2}; });
  const run_result r = gate("v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "seeds differ from the manifest now")) << r.m_out;
}

TEST_F(gate_test, timing_settings_differ_from_parent) {
  for (const std::string v : {"v0", "v1", "v2", "v3"})
    ASSERT_EQ(record_variant(c, v).m_code, v == "v2" || v == "v3" ? 1 : 0);
  patch_json("bench/bench.v4.json", [](json& b) { b["kopt"]["timing"]["max_noise"] = 0.01; });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(
      r.m_out,
      "timing settings differ from the manifest now; timing settings differ from parent v1's record"))
      << r.m_out;
}

TEST_F(gate_test, one_shape_slower_by_more_than_three_percent) {
  for (const std::string v : {"v0", "v1", "v2", "v3"}) (void)record_variant(c, v);
  patch_json("bench/bench.v4.json", [](json& b) {
    b["benchmarks"][0]["kopt"]["median_ns"] = 30000.0;   // rows=4096: 1.46x faster
    b["benchmarks"][1]["kopt"]["median_ns"] = 180000.0;  // rows=8192: 4.5% slower than v1
  });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "ok    speedup")) << r.m_out;
  EXPECT_TRUE(contains(
      r.m_out, "FAIL  per_shape   slower than best-so-far v1 by more than 3%: rows=8192,cols=8192 +4.5%"))
      << r.m_out;
}

TEST_F(gate_test, required_gain_grows_with_noise) {
  for (const std::string v : {"v0", "v1", "v2", "v3"}) (void)record_variant(c, v);
  patch_json("bench/bench.v4.json", [](json& b) {
    b["benchmarks"][0]["kopt"]["noise"] = 0.08;  // 2 x hypot(0.08, 0.003) = 16% > the 15% gain
  });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "<= required +16.0% (max(2%, 2 x noise 8.0%))")) << r.m_out;
}

TEST_F(gate_test, missing_hypothesis_and_extra_root) {
  patch_json(k_manifest, [](json& m) {
    m["variants"][1]["hypothesis"] = nullptr;
    m["variants"][2]["parent"] = nullptr;
  });
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  const run_result v1 = record_variant(c, "v1");
  EXPECT_EQ(v1.m_code, 1);
  EXPECT_TRUE(contains(v1.m_out, "no hypothesis: say what should move and by how much")) << v1.m_out;
  const run_result v2 = record_variant(c, "v2");
  EXPECT_TRUE(contains(v2.m_out, "no parent: only the first variant (v0) may have none")) << v2.m_out;
}

TEST_F(gate_test, roofline_gaps_below_fifteen_percent_meet_the_target) {
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  write_text(c.path("profile.v1.json"), R"({"roofline": [{"shape": "rows=4096,cols=4096", "gap": 0.12},
                                                          {"shape": "rows=8192,cols=8192", "gap": 0.10}]})");
  const run_result r = run_kopt(
      {"record", "--manifest", c.manifest(), "--variant", "v1", "--correctness",
       c.path("results/correct.v1.json").string(), "--bench", c.path("bench/bench.v1.json").string(),
       "--ceilings", c.path("ceilings.json").string(), "--profile", c.path("profile.v1.json").string()});
  EXPECT_EQ(r.m_code, 0);
  EXPECT_TRUE(contains(r.m_out, "notice: target met: every roofline gap is below 15% (best: v1)")) << r.m_out;
  EXPECT_EQ(read_record(c.record("v1")).m_profile["roofline"][0]["gap"], 0.12);  // embedded as given
}

TEST_F(gate_test, malformed_records_are_input_errors_naming_file_and_path) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const std::string v1 = c.record("v1").string();
  patch_json("records/softmax/v1.json", [](json& r) { r["timing"]["shapes"][0].erase("median_ns"); });
  const run_result missing = gate("v4");
  EXPECT_EQ(missing.m_code, 2);
  EXPECT_TRUE(contains(missing.m_err, v1 + ": /timing/shapes/0/median_ns: missing")) << missing.m_err;
  patch_json("records/softmax/v1.json", [](json& r) { r["schema_version"] = 2; });
  const run_result newer =
      run_kopt({"report", "--manifest", c.manifest(), "--out-dir", c.path("out").string()});
  EXPECT_EQ(newer.m_code, 2);
  EXPECT_TRUE(contains(newer.m_err, v1 + ": /schema_version: 2 is newer than this kopt reads (1)"))
      << newer.m_err;
  patch_json("records/softmax/v1.json", [](json& r) { r["kind"] = "kernelopt.env"; });
  const run_result kind = run_kopt({"compare", v1, c.record("v4").string()});
  EXPECT_EQ(kind.m_code, 2);
  EXPECT_TRUE(contains(kind.m_err, v1 + ": /: neither a benchmark JSON file")) << kind.m_err;
  write_text(c.record("v1"), "{\"kind\": \"kernelopt.record\"");
  const run_result bad = run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v1", "--reason", "x"});
  EXPECT_EQ(bad.m_code, 2);
  EXPECT_TRUE(contains(bad.m_err, v1 + ": invalid JSON at line 1")) << bad.m_err;
}

TEST_F(gate_test, gate_without_records_is_an_input_error) {
  const run_result r = gate("v0");
  EXPECT_EQ(r.m_code, 2);
  EXPECT_TRUE(contains(r.m_err, "no record of v0")) << r.m_err;
  const run_result newest = run_kopt({"gate", "--manifest", c.manifest()});
  EXPECT_EQ(newest.m_code, 2);
  EXPECT_TRUE(contains(newest.m_err, "no record of any variant of softmax yet")) << newest.m_err;
}

}  // namespace
}  // namespace kopt::test
