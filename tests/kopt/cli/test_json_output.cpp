// The versioned --json documents of kopt gate and kopt compare
// (docs/formats.md, "JSON output of the commands"); optimize's and perf's
// are in test_optimize.cpp, status's, recommend's and experience's beside
// their code's tests.
#include <gtest/gtest.h>

#include "core/json_io.hpp"
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

}  // namespace
}  // namespace kopt::test
