// The versioned --json documents of kopt gate, compare, record, mask and
// baseline (docs/formats.md, "JSON output of the commands"), and the types
// of gate's, perf's and optimize's (kopt/cli/json_output.hpp); optimize's and
// perf's are in test_optimize.cpp, overlap's in run/test_gpu_schedule.cpp,
// status's, recommend's and experience's beside their code's tests.
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

}  // namespace
}  // namespace kopt::test
