// kopt record on the golden softmax campaign: v0 (root) .. v4, each record
// compared with tests/kopt/data/softmax/expected/records/, plus the facts
// the golden files must show, asserted directly so that regenerating them
// cannot bless a wrong result.
#include <gtest/gtest.h>

#include "core/version.hpp"
#include "kopt/records/record.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

class record_flow : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(record_golden_flow(c)); }
  [[nodiscard]] record load(const std::string& variant) const { return read_record(c.record(variant)); }
  [[nodiscard]] static bool has_reason(const record& r, const std::string& text) {
    for (const std::string& reason : r.m_gate.m_reasons) {
      if (reason.find(text) != std::string::npos) return true;
    }
    return false;
  }
  scratch_case c;
};

// The KernelOpt version that wrote each record is checked here and written
// into the golden files as a placeholder, so that a version bump changes none.
TEST_F(record_flow, records_match_golden_files) {
  const std::string stamp = std::string("\"kernelopt_version\": \"") + kernelopt_version() + "\"";
  for (const std::string variant : {"v0", "v1", "v2", "v3", "v4"}) {
    const std::string text = read_text(c.record(variant));
    EXPECT_NE(text.find(stamp), std::string::npos) << variant;
    EXPECT_EQ(load(variant).m_kernelopt_version, std::string(kernelopt_version()));
    expect_golden(replace_all(text, stamp, "\"kernelopt_version\": \"VERSION\""),
                  "softmax/expected/records/" + variant + ".json");
  }
}

TEST_F(record_flow, root_is_accepted_when_correct) {
  const record v0 = load("v0");
  EXPECT_TRUE(v0.m_gate.accepted());
  EXPECT_TRUE(has_reason(v0, "root variant: becomes the first best"));
  EXPECT_EQ(v0.m_correctness.m_status, "pass");
  EXPECT_FALSE(v0.m_ceilings);
  ASSERT_EQ(v0.m_gate.m_targets.size(), 1u);
  EXPECT_EQ(v0.m_gate.m_targets[0].m_status, "unknown");
  EXPECT_EQ(v0.m_gate.m_targets[0].m_details[0],
            "ceiling.copy_bandwidth: no ceilings in the record (pass --ceilings FILE)");
  EXPECT_FALSE(v0.m_profile.m_document.has_value());
  EXPECT_EQ(v0.m_profile.m_reason, "not run");
  EXPECT_EQ(v0.m_created_utc, "2025-11-21T05:00:00Z");
}

TEST_F(record_flow, speedups_come_from_the_same_bench_file) {
  const record v1 = load("v1");
  EXPECT_TRUE(v1.m_gate.accepted());
  ASSERT_EQ(v1.m_timing.m_shapes.size(), 2u);
  const shape_timing& s = v1.m_timing.m_shapes[0];
  EXPECT_DOUBLE_EQ(*s.m_speedup_vs_parent, 78800.0 / 43700.0);  // v0 as timed in bench.v1, not in v0's record
  EXPECT_DOUBLE_EQ(*s.m_speedup_vs_best, 78800.0 / 43700.0);
  EXPECT_DOUBLE_EQ(*s.m_speedup_vs_reference, 900000.0 / 43700.0);
  EXPECT_EQ(s.m_speedup_vs_baselines.at(0).first, "vendor");
  EXPECT_DOUBLE_EQ(*s.m_speedup_vs_baselines.at(0).second, 40000.0 / 43700.0);
  EXPECT_NEAR(s.m_pct_of_ceiling->at("copy_bandwidth"), *s.m_gbps * 1e9 / 4.0e12, 1e-12);
  EXPECT_EQ(v1.m_timing.m_best_so_far, std::optional<std::string>("v0"));
}

TEST_F(record_flow, incorrect_variant_is_rejected_with_the_failing_trial) {
  const record v2 = load("v2");
  EXPECT_FALSE(v2.m_gate.accepted());
  EXPECT_EQ(v2.m_correctness.m_status, "fail");
  EXPECT_TRUE(
      has_reason(v2, "incorrect: rows=8192,cols=8192: seed 2: output 'y': 12 mismatches, max_abs 0.031"));
  const shape_correctness& bad = v2.m_correctness.m_shapes[1];
  EXPECT_EQ(bad.m_seeds_failed, std::vector<std::int64_t>{2});
  ASSERT_TRUE(bad.m_first_mismatch);
  EXPECT_EQ(bad.m_first_mismatch->m_seed, 2);
  EXPECT_EQ(bad.m_first_mismatch->m_arg, "y");
}

TEST_F(record_flow, small_gain_and_vague_hypothesis_are_rejected_and_stagnation_noticed) {
  const record v3 = load("v3");
  EXPECT_FALSE(v3.m_gate.accepted());
  EXPECT_TRUE(has_reason(v3, "hypothesis states no expected movement"));
  EXPECT_TRUE(has_reason(v3, "geomean 1.01x vs best-so-far v1 over 2 shapes: +1.0% <= required +2.0%"));
  ASSERT_FALSE(v3.m_gate.m_notices.empty());
  EXPECT_EQ(v3.m_gate.m_notices[0], "2 rejections in a row (v2, v3): re-profile, change direction");
}

TEST_F(record_flow, accepted_variant_meeting_targets_says_target_met) {
  const record v4 = load("v4");
  EXPECT_TRUE(v4.m_gate.accepted());
  EXPECT_EQ(v4.m_gate.m_best_so_far, std::optional<std::string>("v1"));  // v2, v3 were rejected
  EXPECT_TRUE(v4.m_gate.m_target_met);
  EXPECT_EQ(v4.m_gate.m_notices,
            std::vector<std::string>{"target met: every TARGET holds on every shape (best: v4)"});
  const record v1 = load("v1");
  EXPECT_FALSE(v1.m_gate.m_target_met);
  EXPECT_EQ(v1.m_gate.m_targets[0].m_status, "unmet");
}

TEST_F(record_flow, gate_text_is_golden) {
  const run_result r = run_kopt({"gate", "--manifest", c.manifest(), "--variant", "v3"});
  EXPECT_EQ(r.m_code, 1);
  expect_golden(r.m_out, "softmax/expected/gate.v3.txt");
  const run_result newest = run_kopt({"gate", "--manifest", c.manifest()});
  EXPECT_EQ(newest.m_code, 0);
  expect_golden(newest.m_out, "softmax/expected/gate.v4.txt");
}

// --env and --static are read through their types (formats/env.hpp,
// formats/static_result.hpp) before the record embeds them: a field of the
// wrong type stops kopt record naming the file and the field.
run_result record_v0_with(const scratch_case& c, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"record", "--manifest", c.manifest(), "--variant", "v0",
                                   "--correctness", c.path("results/correct.v0.json").string(),
                                   "--bench", c.path("bench/bench.v0.json").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_kopt(args);
}

json static_document(const std::string& status) {
  json doc = {{"schema_version", 1}, {"kind", "kernelopt.static"}, {"kernel", "softmax"},
              {"variant", "v0"},     {"status", status},            {"reason", "cuobjdump not found"}};
  return doc;
}

TEST(record_embedded, env_and_static_are_embedded_through_their_types) {
  scratch_case c;
  write_text(c.path("static.v0.json"), static_document("skipped").dump(2));
  const run_result r =
      record_v0_with(c, {"--env", c.path("env.json").string(), "--static", c.path("static.v0.json").string()});
  ASSERT_EQ(r.m_code, 0) << r.m_out << r.m_err;
  const record v0 = read_record(c.record("v0"));
  ASSERT_TRUE(v0.m_env.m_document);
  EXPECT_EQ(v0.m_env.m_document->m_hostname, "ci");
  EXPECT_EQ(v0.m_env.m_document->m_no_device_reason, "KernelOpt built without CUDA");
  ASSERT_TRUE(v0.m_static.m_document);
  EXPECT_TRUE(v0.m_static.m_document->skipped());
  EXPECT_EQ(v0.m_static.m_document->m_reason, "cuobjdump not found");
  EXPECT_EQ(to_json(v0)["static"], static_document("skipped"));
}

TEST(record_embedded, env_with_a_field_of_the_wrong_type_names_file_and_field) {
  scratch_case c;
  json env = json::parse(read_text(c.path("env.json")));
  env["cuda_runtime"] = true;
  write_text(c.path("env.json"), env.dump(2));
  const run_result r = record_v0_with(c, {"--env", c.path("env.json").string()});
  EXPECT_NE(r.m_code, 0);
  EXPECT_NE(r.m_err.find(c.path("env.json").string() + ": /cuda_runtime: expected an integer or \"unknown\""),
            std::string::npos)
      << r.m_err;
  EXPECT_FALSE(fs::exists(c.record("v0")));
}

TEST(record_embedded, static_with_a_bad_status_or_kind_names_file_and_field) {
  scratch_case c;
  write_text(c.path("static.v0.json"), static_document("ok").dump(2));
  run_result r = record_v0_with(c, {"--static", c.path("static.v0.json").string()});
  EXPECT_NE(r.m_code, 0);
  EXPECT_NE(r.m_err.find(c.path("static.v0.json").string() + ": /status: expected \"pass\", \"fail\" or \"skipped\""),
            std::string::npos)
      << r.m_err;
  // Before, a --static file was embedded without even a look at its kind.
  write_text(c.path("static.v0.json"), json::parse(read_text(c.path("env.json"))).dump(2));
  r = record_v0_with(c, {"--static", c.path("static.v0.json").string()});
  EXPECT_NE(r.m_code, 0);
  EXPECT_NE(r.m_err.find(": /kind: expected \"kernelopt.static\", got \"kernelopt.env\""), std::string::npos)
      << r.m_err;
  EXPECT_FALSE(fs::exists(c.record("v0")));
}

TEST(record_embedded, embedded_env_of_the_wrong_type_names_the_record_and_field) {
  json doc = json::parse(read_text(k_data_dir / "softmax/expected/records/v1.json"));
  doc["env"]["devices"] = json::array({{{"index", "zero"}}});
  try {
    (void)record_from_json(doc, "records/softmax/v1.json");
    ADD_FAILURE() << "no error";
  } catch (const format_error& e) {
    EXPECT_NE(std::string(e.what()).find("records/softmax/v1.json: /env/devices/0/index: expected an integer"),
              std::string::npos)
        << e.what();
  }
  doc = json::parse(read_text(k_data_dir / "softmax/expected/records/v1.json"));
  doc["static"] = {{"status", "missing"}, {"reason", "x"}};
  try {
    (void)record_from_json(doc, "records/softmax/v1.json");
    ADD_FAILURE() << "no error";
  } catch (const format_error& e) {
    EXPECT_NE(std::string(e.what()).find("records/softmax/v1.json: /static/status: expected \"unavailable\""),
              std::string::npos)
        << e.what();
  }
}

// The embedded kernelopt.profile and the timing's gpu are read through
// their types (kopt/profile/document.hpp, formats/gpu.hpp) and written back
// as read; what the gate and report read of them comes from those types; a
// malformed one is an error naming the record and the JSON pointer.
TEST(record_embedded, profile_and_gpu_are_read_through_their_types) {
  profile::profile_document p;
  p.m_kernel = "softmax";
  p.m_status = "ok";
  profile::profile_run& run = p.m_run.emplace();
  run.m_created_utc = "2026-11-24T05:00:00Z";
  profile::profiled_benchmark b;
  b.m_name = "softmax/v1/rows=4096,cols=4096";
  b.m_impl = "v1";
  b.m_shape = "rows=4096,cols=4096";
  b.m_status = "ok";
  b.m_bottleneck = "memory-bound";
  profile::roofline_point& point = b.m_roofline.emplace();
  point.m_intensity = 0.625;
  point.m_achieved_flops = 7e12;
  point.m_compute = {"fp32_fma", 6.7e13, "FLOP/s", "spec"};
  point.m_bandwidth = {"dram_bandwidth", 3.35e12, "B/s", "spec"};
  point.m_bound = "memory";
  point.m_gap = 0.12;
  b.m_compute_why = "f32 inputs";
  run.m_benchmarks = {b};
  run.m_impls = {{"v1", profile::impl_profile{"memory-bound", {{"rows=4096,cols=4096", 0.12, "memory"}}}}};
  run.m_impl = "v1";
  json doc = json::parse(read_text(k_data_dir / "softmax/expected/records/v1.json"));
  doc["profile"] = profile::to_json(p);
  doc["timing"]["gpu"] = {{"index", 1}, {"uuid", "GPU-3f9c"}, {"ctest_allocation", nullptr}};
  const record r = record_from_json(doc, "records/softmax/v1.json");
  EXPECT_EQ(to_json(r), doc);
  EXPECT_EQ(profiled_bottleneck(r).value_or(""), "memory-bound");
  ASSERT_TRUE(r.m_timing.m_gpu.has_value());
  EXPECT_EQ(r.m_timing.m_gpu->uuid_or_empty(), "GPU-3f9c");
  EXPECT_FALSE(r.m_timing.m_gpu->m_name.has_value());

  doc["profile"]["impls"]["v1"]["roofline"][0]["gap"] = "small";
  try {
    (void)record_from_json(doc, "records/softmax/v1.json");
    ADD_FAILURE() << "no error";
  } catch (const format_error& e) {
    EXPECT_NE(std::string(e.what()).find("records/softmax/v1.json: /profile/impls/v1/roofline/0/gap: "),
              std::string::npos)
        << e.what();
  }
  doc["profile"] = profile::to_json(p);
  doc["timing"]["gpu"] = {{"uuid", "GPU-3f9c"}};
  try {
    (void)record_from_json(doc, "records/softmax/v1.json");
    ADD_FAILURE() << "no error";
  } catch (const format_error& e) {
    EXPECT_NE(std::string(e.what()).find("records/softmax/v1.json: /timing/gpu/index: missing"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kopt::test
