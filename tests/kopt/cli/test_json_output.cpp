// The versioned --json documents of kopt gate, compare, record, mask and
// baseline (docs/formats.md, "JSON output of the commands"), and the types
// they are written from (kopt/cli/json_output.hpp); the commands' runs of
// optimize and perf are in test_optimize.cpp, overlap's in
// run/test_gpu_schedule.cpp, shard list's in test_cmd_shard.cpp, status's,
// recommend's and experience's beside their code's tests.
#include <gtest/gtest.h>

#include "core/json_io.hpp"
#include "kopt/cli/json_output.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

TEST(json_output, gate_and_compare) {
  scratch_case c;
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const run_result gate = run_kopt({"gate", "--manifest", c.manifest(), "--variant", "v3", "--json"});
  EXPECT_EQ(gate.m_code, 1);
  const json doc = parse_stdout(gate.m_out);
  expect_schema(doc, "kernelopt.gate", {"kernel", "variant", "decision", "recorded_decision", "notes", "gate"});
  EXPECT_EQ(doc["decision"], "REJECT");
  EXPECT_TRUE(doc["gate"].contains("checks"));
  const run_result compare =
      run_kopt({"compare", c.record("v0").string(), c.record("v1").string(), "--json"});
  EXPECT_EQ(compare.m_code, 0) << compare.m_err;
  expect_schema(parse_stdout(compare.m_out), "kernelopt.compare", {"rows"}, 2);
  EXPECT_EQ(run_kopt({"compare", c.record("v0").string(), c.record("v1").string(), "--json", "--format", "md"}).m_code,
            2);
}

// kopt record, mask and baseline: the decision (or why none) as one document.
TEST(json_output, record_mask_and_baseline) {
  scratch_case c;
  const auto record_args = [&](const std::string& variant, const std::string& results) {
    return std::vector<std::string>{"record", "--manifest", c.manifest(), "--variant", variant, "--correctness",
                                    c.path("results/" + results).string(), "--bench",
                                    c.path("bench/bench." + variant + ".json").string(), "--json"};
  };
  const run_result recorded = run_kopt(record_args("v0", "correct.v0.json"));
  ASSERT_EQ(recorded.m_code, 0) << recorded.m_err;
  const json doc = parse_stdout(recorded.m_out);
  expect_schema(doc, "kernelopt.record_written",
                {"kernel", "variant", "outcome", "reason", "record", "decision", "gate"});
  EXPECT_EQ(doc["variant"], "v0");
  EXPECT_EQ(doc["outcome"], "ACCEPT");
  EXPECT_EQ(doc["decision"], "ACCEPT");
  EXPECT_EQ(doc["record"], c.record("v0").string());
  EXPECT_TRUE(doc["gate"].contains("checks"));

  const run_result skipped = run_kopt(record_args("v1", "correct.v1.skipped.json"));
  EXPECT_EQ(skipped.m_code, 77);
  const json none = parse_stdout(skipped.m_out);
  EXPECT_EQ(none["outcome"], "skipped");
  EXPECT_TRUE(none["record"].is_null());
  EXPECT_NE(none["reason"].get<std::string>().find("correctness skipped"), std::string::npos);

  const run_result masked = run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v0", "--reason", "x", "--json"});
  ASSERT_EQ(masked.m_code, 0) << masked.m_err;
  const json mask = parse_stdout(masked.m_out);
  expect_schema(mask, "kernelopt.mask", {"kernel", "variant", "record", "masked"});
  EXPECT_EQ(mask["masked"]["reason"], "x");

  // Nothing accepted is left: the baseline is skipped, and says why.
  const run_result baseline = run_kopt({"baseline", "--manifest", c.manifest(), "--json"});
  EXPECT_EQ(baseline.m_code, 77);
  const json b = parse_stdout(baseline.m_out);
  expect_schema(b, "kernelopt.baseline", {"kernel", "best", "outcome", "reason", "file", "baseline", "exit_code"});
  EXPECT_EQ(b["outcome"], "skipped");
  EXPECT_EQ(b["exit_code"], 77);
  EXPECT_NE(b["reason"].get<std::string>().find("no accepted record"), std::string::npos) << b.dump();
}

// The typed documents (kopt/cli/json_output.hpp) a run fills in as it goes:
// every key in the documented order; what the run did not reach is null.
std::vector<std::string> keys_of(const json& doc) {
  std::vector<std::string> keys;
  for (const auto& item : doc.items()) keys.push_back(item.key());
  return keys;
}

TEST(json_output, perf_and_optimize_documents_before_and_after_the_run) {
  cli::perf_output perf;
  perf.m_outcome = "skipped";
  perf.m_exit_code = 77;
  json doc = to_json(perf);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "kernel", "best", "reason", "compare",
                                                    "targets", "outcome", "exit_code"}));
  EXPECT_EQ(doc["kind"], "kernelopt.perf");
  EXPECT_TRUE(doc["kernel"].is_null() && doc["best"].is_null() && doc["compare"].is_null());
  EXPECT_EQ(doc["targets"], json::array());
  perf.m_kernel = "softmax";
  perf.m_targets.push_back({"gbps >= 1", "unmet", "met", true});
  doc = to_json(perf);
  EXPECT_EQ(doc["kernel"], "softmax");
  EXPECT_EQ(doc["targets"][0].dump(), R"({"target":"gbps >= 1","status":"unmet","recorded":"met","lost":true})");

  cli::optimize_output optimize;
  optimize.m_kernel = "softmax";
  optimize.m_outcome = "nothing_left";
  doc = to_json(optimize);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "kernel", "variant", "outcome",
                                                    "decision", "record", "skipped", "failure", "gate", "exit_code"}));
  EXPECT_EQ(doc["kind"], "kernelopt.optimize");
  EXPECT_TRUE(doc["variant"].is_null() && doc["failure"].is_null() && doc["gate"].is_null());
  optimize.m_failure = run_failure{"benchmark", "signal 11"};
  EXPECT_EQ(to_json(optimize)["failure"].dump(), R"({"step":"benchmark","cause":"signal 11"})");

  cli::gate_output gate;
  gate.m_kernel = "softmax";
  gate.m_variant = "v1";
  gate.m_decision = "ACCEPT";
  gate.m_recorded_decision = "REJECT";
  doc = to_json(gate);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "kernel", "variant", "decision",
                                                    "recorded_decision", "notes", "gate"}));
  EXPECT_EQ(doc["recorded_decision"], "REJECT");
  EXPECT_TRUE(doc["gate"].contains("checks"));
}

// kopt record, mask, baseline and ablate: every key in order, null until the
// run reaches it.
TEST(json_output, record_mask_baseline_and_ablate_documents) {
  cli::record_output record;
  record.m_kernel = "softmax";
  record.m_variant = "v1";
  json doc = to_json(record);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "kernel", "variant", "outcome", "reason",
                                                    "record", "decision", "gate"}));
  EXPECT_EQ(doc["kind"], "kernelopt.record_written");
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["outcome"], "skipped");
  EXPECT_TRUE(doc["reason"].is_null() && doc["record"].is_null() && doc["decision"].is_null() &&
              doc["gate"].is_null());
  record.m_outcome = "REJECT";
  record.m_record = "records/softmax/v1.json";
  record.m_decision = "REJECT";
  record.m_gate = gate_result{};
  doc = to_json(record);
  EXPECT_EQ(doc["record"], "records/softmax/v1.json");
  EXPECT_EQ(doc["decision"], "REJECT");
  EXPECT_TRUE(doc["gate"].contains("checks"));

  const cli::mask_output mask{"softmax", "v1", "records/softmax/v1.json", {"noisy host", "2026-11-25T01:00:00Z"}};
  doc = to_json(mask);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "kernel", "variant", "record", "masked"}));
  EXPECT_EQ(doc["kind"], "kernelopt.mask");
  EXPECT_EQ(doc["masked"].dump(), R"({"reason":"noisy host","utc":"2026-11-25T01:00:00Z"})");

  cli::baseline_output baseline;
  baseline.m_outcome = "fail";
  baseline.m_exit_code = 1;
  doc = to_json(baseline);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "kernel", "best", "reason", "file",
                                                    "replaced", "baseline", "outcome", "exit_code"}));
  EXPECT_EQ(doc["kind"], "kernelopt.baseline");
  EXPECT_TRUE(doc["kernel"].is_null() && doc["file"].is_null() && doc["baseline"].is_null());
  EXPECT_EQ(doc["replaced"], false);
  EXPECT_EQ(doc["exit_code"], 1);
  perf_baseline measured;
  measured.m_variant = "v2";
  baseline.m_baseline = measured;
  baseline.m_replaced = true;
  doc = to_json(baseline);
  EXPECT_EQ(doc["baseline"]["kind"], "kernelopt.perf_baseline");
  EXPECT_EQ(doc["baseline"]["variant"], "v2");
  EXPECT_EQ(doc["replaced"], true);

  cli::ablate_output ablate;
  ablate.m_exit_code = 77;
  doc = to_json(ablate);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "variant", "record", "ablation",
                                                    "exit_code"}));
  EXPECT_EQ(doc["kind"], "kernelopt.ablate");
  EXPECT_TRUE(doc["variant"].is_null() && doc["record"].is_null() && doc["ablation"].is_null());
  ablation_result ablation;
  ablation.m_threshold = 0.05;
  ablate.m_ablation = ablation;
  ablate.m_variant = "v3";
  doc = to_json(ablate);
  EXPECT_EQ(doc["variant"], "v3");
  EXPECT_EQ(doc["ablation"], to_json(ablation));
}

TEST(json_output, overlap_document) {
  cli::overlap_output overlap;
  EXPECT_EQ(to_json(overlap).dump(),
            R"({"schema_version":1,"kind":"kernelopt.overlap","runs":[],"overlaps":[]})");
  overlap.m_runs.push_back({"a.json", "GPU-0", "id:0,slots:4", 1'000'000'000, 2'000'000'000});
  overlap.m_overlaps.push_back({"GPU-0", "a.json", "c.json", 250'000'000});
  const json doc = to_json(overlap);
  EXPECT_EQ(doc["runs"][0].dump(), R"({"file":"a.json","gpu":"GPU-0","ctest_allocation":"id:0,slots:4",)"
                                   R"("started_unix_ns":1000000000,"finished_unix_ns":2000000000})");
  EXPECT_EQ(doc["overlaps"][0].dump(), R"({"gpu":"GPU-0","first":"a.json","second":"c.json","overlap_s":0.25})");
}

TEST(json_output, experience_documents) {
  experience_entry entry;
  entry.m_id = "c2a91428e2a8c351";
  entry.m_kernel = "softmax";
  const cli::experience_list_output list{"search", "/store", {entry}};
  json doc = to_json(list);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "action", "store", "entries"}));
  EXPECT_EQ(doc["kind"], "kernelopt.experience_list");
  EXPECT_EQ(doc["action"], "search");
  ASSERT_EQ(doc["entries"].size(), 1u);
  EXPECT_EQ(doc["entries"][0], to_json(entry));

  cli::experience_add_output added;
  added.m_store = "/store";
  added.m_added = 1;
  added.m_present = 2;
  added.m_entries.push_back({"c2a91428e2a8c351", "v0", true});
  doc = to_json(added);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "store", "added", "present", "entries"}));
  EXPECT_EQ(doc["kind"], "kernelopt.experience_add");
  EXPECT_EQ(doc["present"], 2);
  EXPECT_EQ(doc["entries"].dump(), R"([{"id":"c2a91428e2a8c351","variant":"v0","added":true}])");

  cli::experience_stats_output stats;
  stats.m_store = "/store";
  stats.m_entries = 3;
  stats.m_methods["vectorized_loads"].m_success = 2;
  stats.m_methods["online_softmax"].m_other = 1;
  doc = to_json(stats);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "store", "entries", "methods"}));
  EXPECT_EQ(doc["kind"], "kernelopt.experience_stats");
  EXPECT_EQ(doc["methods"].dump(), R"([{"method":"online_softmax","success":0,"neutral":0,"failure":0,"other":1},)"
                                   R"({"method":"vectorized_loads","success":2,"neutral":0,"failure":0,"other":0}])");
}

TEST(json_output, shard_list_document) {
  const cli::shard_list_output list{{1, 3, "SLURM_ARRAY_TASK_ID"}, "abc", 5, {"softmax/v1", "gemm/v0"}, "^(x)$"};
  const json doc = to_json(list);
  EXPECT_EQ(keys_of(doc), (std::vector<std::string>{"schema_version", "kind", "shard", "suite_sha256", "suite_units",
                                                    "units", "ctest_regex"}));
  EXPECT_EQ(doc["kind"], "kernelopt.shard_list");
  EXPECT_EQ(doc["shard"].dump(),
            R"({"index":1,"count":3,"assignment":"hrw-sha256","index_source":"SLURM_ARRAY_TASK_ID"})");
  EXPECT_EQ(doc["suite_units"], 5);
  EXPECT_EQ(doc["units"], (std::vector<std::string>{"softmax/v1", "gemm/v0"}));
  EXPECT_EQ(doc["ctest_regex"], "^(x)$");
}

}  // namespace
}  // namespace kopt::test
