#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/scale/merge/champions.hpp"
#include "kopt/scale/merge/merge_plan.hpp"
#include "kopt/scale/shard/shard_document.hpp"
#include "kopt/scale/shard/shard_plan.hpp"

namespace kopt::scale {
namespace {

const std::vector<std::string> k_units = {"k/a", "k/b", "k/c", "k/d", "k/e", "k/f", "k/g", "k/h"};
constexpr int k_count = 3;

unit_outcome outcome(const std::string& unit, const std::string& model, const std::string& status, double ns) {
  unit_outcome u;
  u.m_unit = unit;
  u.m_kernel = "k";
  u.m_impl = unit.substr(2);
  u.m_device_model = model;
  u.m_device_uuid = "GPU-1";
  u.m_source_sha256 = "abc";
  u.m_correctness = status;
  u.m_bench = status == "pass" ? "ok" : "not_run";
  shape_outcome s;
  s.m_shape = "n=1";
  s.m_correctness = status == "pass" ? "pass" : status == "fail" ? "fail" : "not_run";
  if (status == "pass") s.m_median_ns = ns;
  u.m_shapes.push_back(s);
  return u;
}

// Shard `index` run on `model`, finished at `finished`; each unit passes
// with a time from its name unless listed in `fail`.
shard_input shard(int index, const std::string& model, const std::string& finished, const std::string& run_id,
                  const std::vector<std::string>& fail = {}) {
  shard_document d;
  d.m_index = index;
  d.m_count = k_count;
  d.m_assignment = k_assignment;
  d.m_index_source = "--shard";
  d.m_status = "complete";
  d.m_run_id = run_id;
  d.m_host = "h";
  d.m_kernelopt_version = "0";
  d.m_started_utc = finished;
  d.m_finished_utc = finished;
  d.m_suite_sha256 = "suite";
  d.m_suite_units = k_units;
  d.m_device_model = model;
  d.m_device_uuid = "GPU-1";
  d.m_build_sha256 = "b";
  d.m_launcher.m_variables = {{"SLURM_JOB_ID", "42"}, {"CUDA_VISIBLE_DEVICES", "0"}};
  for (const std::string& u : units_of_shard(k_units, index, k_count)) {
    const bool failed = std::find(fail.begin(), fail.end(), u) != fail.end();
    d.m_units.push_back(outcome(u, model, failed ? "fail" : "pass", 100.0 + static_cast<double>(u.back())));
  }
  return {"/shards/" + run_id, d};
}

std::vector<shard_input> all_shards(const std::string& model) {
  std::vector<shard_input> inputs;
  for (int i = 0; i < k_count; ++i) inputs.push_back(shard(i, model, "2026-01-01T00:00:0" + std::to_string(i) + "Z", "r" + std::to_string(i)));
  return inputs;
}

std::string chosen_run(const merge_plan& plan, const std::string& unit) {
  for (const merge_group& g : plan.m_groups) {
    for (const merged_unit& u : g.m_units) {
      if (u.m_unit == unit) return plan.m_inputs[u.m_chosen].m_doc.m_run_id;
    }
  }
  return "";
}

TEST(MergePlan, AllShardsMakeOneCompleteGroup) {
  const merge_plan plan = plan_merge(all_shards("H100"));
  ASSERT_EQ(plan.m_groups.size(), 1u);
  EXPECT_TRUE(plan.complete());
  EXPECT_FALSE(plan.has_conflicts());
  EXPECT_EQ(plan.m_groups[0].m_units.size(), k_units.size());
  EXPECT_EQ(plan.m_groups[0].m_folder, "h100");
}

TEST(MergePlan, MissingShardIsNamed) {
  std::vector<shard_input> inputs = all_shards("H100");
  inputs.erase(inputs.begin() + 1);
  const merge_plan plan = plan_merge(inputs);
  EXPECT_FALSE(plan.complete());
  EXPECT_EQ(plan.m_missing_shards, std::vector<int>{1});
  EXPECT_EQ(plan.m_absent_shards, std::vector<int>{1});
  EXPECT_EQ(plan.m_groups[0].m_missing_units, units_of_shard(k_units, 1, k_count));
}

TEST(MergePlan, DuplicatesResolvedByTheRuleWhateverTheOrder) {
  std::vector<shard_input> inputs = all_shards("H100");
  // Shard 0 again, later: the newer run counts; an error run never beats one that ran.
  inputs.push_back(shard(0, "H100", "2026-01-02T00:00:00Z", "r9"));
  shard_input crashed = shard(0, "H100", "2026-01-03T00:00:00Z", "r8");
  for (unit_outcome& u : crashed.m_doc.m_units) u.m_correctness = "error";
  inputs.push_back(crashed);
  const std::string unit = units_of_shard(k_units, 0, k_count).front();
  std::vector<std::string> seen;
  for (int rotation = 0; rotation < static_cast<int>(inputs.size()); ++rotation) {
    std::rotate(inputs.begin(), inputs.begin() + 1, inputs.end());
    const merge_plan plan = plan_merge(inputs);
    EXPECT_TRUE(plan.complete());
    EXPECT_FALSE(plan.has_conflicts());
    seen.push_back(chosen_run(plan, unit));
  }
  for (const std::string& run : seen) EXPECT_EQ(run, "r9");
}

TEST(MergePlan, DisagreeingDuplicatesAreAConflict) {
  std::vector<shard_input> inputs = all_shards("H100");
  const std::string unit = units_of_shard(k_units, 2, k_count).front();
  inputs.push_back(shard(2, "H100", "2026-01-05T00:00:00Z", "r7", {unit}));
  const merge_plan plan = plan_merge(inputs);
  ASSERT_TRUE(plan.has_conflicts());
  EXPECT_EQ(plan.m_groups[0].m_conflicts[0].m_unit, unit);
  EXPECT_NE(plan.m_groups[0].m_conflicts[0].m_what.find("correctness"), std::string::npos);
  EXPECT_EQ(chosen_run(plan, unit), "r7");  // the newest, by the rule; flagged
}

TEST(MergePlan, GpuModelsAreNeverMixed) {
  // Shards 0 and 1 on H100, shard 2 on A100, and all of them again on A100.
  std::vector<shard_input> inputs = all_shards("H100");
  inputs.pop_back();
  inputs.push_back(shard(2, "NVIDIA A100", "2026-01-01T00:00:02Z", "a2"));
  const merge_plan partial = plan_merge(inputs);
  ASSERT_EQ(partial.m_groups.size(), 2u);
  EXPECT_FALSE(partial.complete());  // neither model has every unit of k
  for (const merge_group& g : partial.m_groups) {
    for (const merged_unit& u : g.m_units) EXPECT_EQ(partial.outcome(u).m_device_model, g.m_device_model);
  }
  inputs.push_back(shard(0, "NVIDIA A100", "2026-01-01T00:00:03Z", "a0"));
  inputs.push_back(shard(1, "NVIDIA A100", "2026-01-01T00:00:04Z", "a1"));
  inputs.push_back(shard(2, "H100", "2026-01-01T00:00:05Z", "h2"));
  const merge_plan both = plan_merge(inputs);
  EXPECT_TRUE(both.complete());
  ASSERT_EQ(both.m_groups.size(), 2u);
  EXPECT_EQ(both.m_groups[0].m_folder, "h100");
  EXPECT_EQ(both.m_groups[1].m_folder, "nvidia-a100");
}

TEST(MergePlan, DifferentSuitesAreNotMerged) {
  std::vector<shard_input> inputs = all_shards("H100");
  inputs[1].m_doc.m_suite_sha256 = "other";
  EXPECT_THROW((void)plan_merge(inputs), std::runtime_error);
  inputs = all_shards("H100");
  inputs[1].m_doc.m_count = 4;
  EXPECT_THROW((void)plan_merge(inputs), std::runtime_error);
  EXPECT_THROW((void)plan_merge({}), std::runtime_error);
}

TEST(MergePlan, AUnitOfAnotherShardIsAnError) {
  std::vector<shard_input> inputs = all_shards("H100");
  inputs[0].m_doc.m_units.push_back(inputs[1].m_doc.m_units.front());
  EXPECT_THROW((void)plan_merge(inputs), std::runtime_error);
}

TEST(ShardDocument, RoundTripAndErrorsNameTheField) {
  const shard_input input = shard(1, "H100", "2026-01-01T00:00:00Z", "r1");
  const json doc = to_json(input.m_doc);
  EXPECT_EQ(to_json(shard_from_json(doc, "shard.json")), doc);
  json bad = doc;
  bad["units"][0]["correctness"] = "maybe";
  try {
    (void)shard_from_json(bad, "x/shard.json");
    ADD_FAILURE() << "accepted";
  } catch (const format_error& e) {
    EXPECT_NE(std::string(e.what()).find("x/shard.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("/units/0/correctness"), std::string::npos) << e.what();
  }
}

// expect the error of reading `doc` names x/shard.json and `pointer`.
void expect_field_error(const json& doc, const std::string& pointer) {
  try {
    (void)shard_from_json(doc, "x/shard.json");
    ADD_FAILURE() << "accepted: " << pointer;
  } catch (const format_error& e) {
    EXPECT_NE(std::string(e.what()).find("x/shard.json: " + pointer + ":"), std::string::npos) << e.what();
  }
}

TEST(ShardDocument, LauncherIsAnObjectOfStrings) {
  const json doc = to_json(shard(1, "H100", "2026-01-01T00:00:00Z", "r1").m_doc);
  EXPECT_EQ(doc["launcher"], json::parse(R"({"SLURM_JOB_ID": "42", "CUDA_VISIBLE_DEVICES": "0"})"));
  const shard_document back = shard_from_json(doc, "x/shard.json");
  ASSERT_EQ(back.m_launcher.m_variables.size(), 2u);
  EXPECT_EQ(back.m_launcher.m_variables[1], (std::pair<std::string, std::string>{"CUDA_VISIBLE_DEVICES", "0"}));
  json absent = doc;
  absent.erase("launcher");
  EXPECT_TRUE(shard_from_json(absent, "x/shard.json").m_launcher.m_variables.empty());
  json number = doc;
  number["launcher"]["SLURM_JOB_ID"] = 42;
  expect_field_error(number, "/launcher/SLURM_JOB_ID");
  json list = doc;
  list["launcher"] = json::array({"SLURM_JOB_ID"});
  expect_field_error(list, "/launcher");
}

TEST(Champions, FastestCorrectPerShapeAndFailures) {
  const unit_outcome fast_wrong = outcome("k/a", "H100", "fail", 1);
  const unit_outcome slow = outcome("k/b", "H100", "pass", 300);
  const unit_outcome fast = outcome("k/c", "H100", "pass", 200);
  const champion_map map = champions_of("H100", {&fast_wrong, &slow, &fast});
  ASSERT_EQ(map.m_kernels.size(), 1u);
  ASSERT_EQ(map.m_kernels[0].m_shapes.size(), 1u);
  EXPECT_EQ(map.m_kernels[0].m_shapes[0].m_champion, std::optional<std::string>("c"));
  EXPECT_EQ(map.m_kernels[0].m_shapes[0].m_candidates, 2u);
  ASSERT_EQ(map.m_kernels[0].m_failed.size(), 1u);
  EXPECT_EQ(map.m_kernels[0].m_failed[0].m_impl, "a");
  EXPECT_TRUE(champion_differences(map, champions_from_json(to_json(map), "c.json")).empty());
  const unit_outcome faster = outcome("k/b", "H100", "pass", 100);
  const std::vector<std::string> diff = champion_differences(map, champions_of("H100", {&fast_wrong, &faster, &fast}));
  ASSERT_EQ(diff.size(), 1u);
  EXPECT_NE(diff[0].find("champion c vs b"), std::string::npos) << diff[0];
}

}  // namespace
}  // namespace kopt::scale
