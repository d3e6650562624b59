// The stop conditions (kopt/decide/stop.hpp) and kopt status: continue,
// then stagnation, target_met, max_iterations and near_peak.
#include <gtest/gtest.h>

#include <optional>

#include "core/json_io.hpp"
#include "kopt/decide/stop.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/records/record_store.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

// Records v0.. of the golden flow up to `last`.
void record_until(const scratch_case& c, const std::string& last) {
  for (const std::string v : {"v0", "v1", "v2", "v3", "v4"}) {
    (void)record_variant(c, v, v != "v0");
    if (v == last) return;
  }
}

TEST(status, continues_then_stops_on_stagnation) {
  scratch_case c;
  const run_result empty = run_kopt({"status", "--manifest", c.manifest(), "--json"});
  EXPECT_EQ(empty.m_code, 0);
  EXPECT_EQ(parse_stdout(empty.m_out)["next_variant"], "v0");
  record_until(c, "v1");
  const run_result going = run_kopt({"status", "--manifest", c.manifest()});
  EXPECT_EQ(going.m_code, 0) << going.m_out << going.m_err;
  EXPECT_NE(going.m_out.find("status softmax: CONTINUE"), std::string::npos) << going.m_out;
  EXPECT_NE(going.m_out.find("next: run optimize-softmax (next: v2)"), std::string::npos) << going.m_out;
  record_until(c, "v3");  // v2 and v3 rejected
  const run_result stuck = run_kopt({"status", "--manifest", c.manifest(), "--json"});
  EXPECT_EQ(stuck.m_code, 1) << stuck.m_out << stuck.m_err;
  const json doc = parse_stdout(stuck.m_out);
  expect_schema(doc, "kernelopt.status",
                {"kernel", "decision", "stop_reason", "summary", "best", "newest", "recorded", "declared",
                 "bottleneck", "conditions", "next_variant", "next_step", "uncounted", "recommendations"});
  EXPECT_EQ(doc["uncounted"], json::array());
  EXPECT_EQ(doc["decision"], "stop");
  EXPECT_EQ(doc["stop_reason"], "stagnation");
  EXPECT_EQ(doc["best"], "v1");
  EXPECT_EQ(doc["summary"], "stagnation: 2 rejections in a row (v2, v3): re-profile, change direction");
  EXPECT_EQ(doc["recommendations"]["kind"], "kernelopt.recommend");
  // --stagnation 3 lets it go on.
  EXPECT_EQ(run_kopt({"status", "--manifest", c.manifest(), "--stagnation", "3"}).m_code, 0);
  EXPECT_EQ(run_kopt({"status", "--manifest", c.manifest(), "--kernel", "gemm"}).m_code, 2);
}

TEST(status, names_the_accepted_records_that_no_longer_count) {
  scratch_case c;
  record_until(c, "v4");
  write_text(c.path("src/v4_warp_per_row.cpp"), "// edited after the record\n");
  const run_result r = run_kopt({"status", "--manifest", c.manifest(), "--json"});
  const json doc = parse_stdout(r.m_out);
  ASSERT_EQ(doc["uncounted"].size(), 1u) << r.m_out;
  const std::string note = doc["uncounted"][0];
  EXPECT_EQ(note.rfind("note: softmax/v4 ACCEPT (stale): ", 0), 0u) << note;
  EXPECT_NE(note.find("sources changed since the record"), std::string::npos) << note;
  EXPECT_NE(doc["best"], "v4");
  const run_result text = run_kopt({"status", "--manifest", c.manifest()});
  EXPECT_NE(text.m_out.find("  note: softmax/v4 ACCEPT (stale): "), std::string::npos) << text.m_out;
}

TEST(status, stops_when_the_target_is_met) {
  scratch_case c;
  record_until(c, "v4");
  const run_result r = run_kopt({"status", "--manifest", c.manifest(), "--json"});
  EXPECT_EQ(r.m_code, 1);
  const json doc = parse_stdout(r.m_out);
  EXPECT_EQ(doc["stop_reason"], "target_met");
  EXPECT_EQ(doc["best"], "v4");
}

TEST(status, stops_at_max_iterations_and_near_peak) {
  scratch_case c;
  // No TARGET, MAX_ITERATIONS 2, as CMake writes them.
  json m = read_json_file(c.manifest());
  m["targets"] = json::array();
  m["max_iterations"] = 2;
  write_text(c.manifest(), m.dump(2));
  record_until(c, "v0");
  EXPECT_EQ(run_kopt({"status", "--manifest", c.manifest()}).m_code, 0);
  record_until(c, "v1");
  const run_result r = run_kopt({"status", "--manifest", c.manifest()});
  EXPECT_EQ(r.m_code, 1) << r.m_out;
  EXPECT_NE(r.m_out.find("HOLDS max_iterations: 2 of MAX_ITERATIONS 2 variants recorded"), std::string::npos)
      << r.m_out;

  // near_peak: the best's profile carries a roofline with every gap < 15 %.
  m.erase("max_iterations");
  write_text(c.manifest(), m.dump(2));
  const manifest decl = read_manifest(c.manifest());
  const record_set loaded = load_records(decl);
  std::vector<std::optional<record>> records;
  std::vector<record_status> statuses;
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    records.push_back(loaded.at(i) ? std::optional<record>(*loaded.at(i)) : std::nullopt);
    statuses.push_back(loaded.status_at(i));
  }
  profile::profile_document& doc = records[1]->m_profile.m_document.emplace();
  doc.m_kernel = "softmax";
  doc.m_status = "ok";
  profile::profile_run& run = doc.m_run.emplace();
  run.m_impl = "v1";
  run.m_impls = {{"v1", profile::impl_profile{"memory-bound",
                                              {{"rows=4096,cols=4096", 0.10, "memory"},
                                               {"rows=8192,cols=8192", 0.14, "memory"}}}}};
  const stop_status near = evaluate_stop(decl, record_set(records, statuses));
  EXPECT_TRUE(near.m_stop);
  EXPECT_EQ(near.m_reason.value_or(""), "near_peak");
  EXPECT_EQ(near.m_bottleneck, "memory-bound");
  run.m_impls[0].second.m_roofline[1].m_gap = 0.2;
  const stop_status far = evaluate_stop(decl, record_set(records, statuses));
  EXPECT_FALSE(far.m_stop);
  EXPECT_NE(far.m_next_step.find("run optimize-softmax (next: v2)"), std::string::npos) << far.m_next_step;
}

}  // namespace
}  // namespace kopt::test
