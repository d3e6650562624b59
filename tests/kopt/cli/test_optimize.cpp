// kopt optimize and kopt perf against a fake harness (fake_harness.cpp):
// what they run, in which order, and what they write or refuse to write.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <cstring>

#include "core/json_io.hpp"
#include "kopt/records/record.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

// Sets environment variables for the fake harness; restores them after.
class fake_harness_env {
 public:
  fake_harness_env& set(const char* name, const std::string& value) {
    ::setenv(name, value.c_str(), 1);
    m_names.push_back(name);
    return *this;
  }
  fake_harness_env() = default;
  fake_harness_env(const fake_harness_env&) = delete;
  fake_harness_env& operator=(const fake_harness_env&) = delete;
  ~fake_harness_env() {
    for (const char* name : m_names) ::unsetenv(name);
  }

 private:
  std::vector<const char*> m_names;
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class optimize_test : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(record_golden_flow(c)); }
  [[nodiscard]] std::string log() const { return read_text(c.path("harness.log")); }
  // perf.same.json times v4, the best before v5.
  void mask_v5() const {
    ASSERT_EQ(run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v5", "--reason", "test"}).m_code, 0);
  }
  scratch_case c;
};

TEST_F(optimize_test, one_full_iteration) {
  fake_harness_env env;
  env.set("KOPT_FAKE_LOG", c.path("harness.log").string())
      .set("KOPT_FAKE_TEST_RESULTS", c.path("results/correct.v5.json").string())
      .set("KOPT_FAKE_BENCH_OUT", c.path("bench/bench.v5.json").string());
  const run_result r =
      run_kopt({"optimize", "--manifest", c.manifest(), "--ceilings", c.path("ceilings.json").string()});
  EXPECT_EQ(r.m_code, 0) << r.m_out << r.m_err;
  for (const char* step :
       {"[1/8] env", "[2/8] correctness", "[3/8] benchmark", "[4/8] profile", "[5/8] static checks",
        "[6/8] record", "[7/8] gate", "[8/8] report"}) {
    EXPECT_TRUE(contains(r.m_out, step)) << step << "\n" << r.m_out;
  }
  EXPECT_TRUE(contains(r.m_out, "optimize softmax/v5")) << r.m_out;  // the first variant without a record
  EXPECT_TRUE(contains(r.m_out, "gate softmax/v5: ACCEPT")) << r.m_out;
  const std::string run_dir = c.path("build/kernelopt/softmax/runs/20251121T050000Z").string();
  EXPECT_EQ(log(), "--gtest_filter=v5.* --kopt_results=" + run_dir +
                       "/correct.v5.json\n"
                       "--benchmark_filter=^softmax/(v5|v4|reference|vendor)/ --benchmark_out=" +
                       run_dir + "/bench.json --benchmark_out_format=json --kopt_ceilings=" +
                       c.path("ceilings.json").string() + " --kopt_timeout=570\n");
  const record v5 = read_record(c.record("v5"));
  EXPECT_TRUE(v5.m_gate.accepted());
  EXPECT_TRUE(v5.m_env.m_document.has_value()) << v5.m_env.m_reason;
  EXPECT_TRUE(fs::exists(c.path("build/kernelopt/env.json")));
  EXPECT_TRUE(fs::exists(c.path("records/softmax/report/report.md")));
  EXPECT_TRUE(fs::exists(c.path("records/softmax/report/report.html")));
}

// The main job's scratch folder: records, lock and report go there; the
// manifest's records folder is left as it was.
TEST_F(optimize_test, records_dir_keeps_the_manifest_records_untouched) {
  fake_harness_env env;
  env.set("KOPT_FAKE_LOG", c.path("harness.log").string())
      .set("KOPT_FAKE_TEST_RESULTS", c.path("results/correct.v0.json").string())
      .set("KOPT_FAKE_BENCH_OUT", c.path("bench/bench.v0.json").string());
  const fs::path scratch = c.path("scratch");
  const std::string v0_before = read_text(c.record("v0"));
  // The scratch folder holds no record: its first iteration is v0's.
  const run_result r = run_kopt({"optimize", "--manifest", c.manifest(), "--records-dir", scratch.string(),
                                 "--ceilings", c.path("ceilings.json").string()});
  EXPECT_EQ(r.m_code, 0) << r.m_out << r.m_err;
  EXPECT_TRUE(contains(r.m_out, "gate softmax/v0: ACCEPT")) << r.m_out;
  EXPECT_TRUE(fs::exists(scratch / "softmax" / "v0.json"));
  EXPECT_TRUE(fs::exists(scratch / "softmax" / "report" / "report.html"));
  EXPECT_EQ(read_text(c.record("v0")), v0_before);
  const run_result report = run_kopt({"report", "--manifest", c.manifest(), "--records-dir", scratch.string(),
                                      "--out-dir", c.path("scratch_report").string()});
  EXPECT_EQ(report.m_code, 0) << report.m_err;
  EXPECT_TRUE(contains(read_text(c.path("scratch_report/report.md")), "ACCEPT")) << read_text(c.path("scratch_report/report.md"));
  EXPECT_EQ(run_kopt({"optimize", "--manifest", c.manifest(), "--records-dir", ""}).m_code, 2);
}

// A variant after one without a record is refused before anything runs:
// the order rule would reject it, and its record could never be rewritten.
TEST_F(optimize_test, a_variant_out_of_declaration_order_is_refused_before_it_runs) {
  fake_harness_env env;
  env.set("KOPT_FAKE_LOG", c.path("harness.log").string())
      .set("KOPT_FAKE_TEST_RESULTS", c.path("results/correct.v5.json").string())
      .set("KOPT_FAKE_BENCH_OUT", c.path("bench/bench.v5.json").string());
  const fs::path scratch = c.path("scratch");
  const run_result r = run_kopt({"optimize", "--manifest", c.manifest(), "--variant", "v5", "--records-dir",
                                 scratch.string(), "--ceilings", c.path("ceilings.json").string()});
  EXPECT_EQ(r.m_code, 2) << r.m_out << r.m_err;
  EXPECT_TRUE(contains(r.m_err, "v0, declared before v5, has no record: optimize v0 first (the gate's order rule "
                                "would reject v5, and a record is never rewritten)"))
      << r.m_err;
  EXPECT_FALSE(fs::exists(c.path("harness.log"))) << "the harness ran";
  EXPECT_FALSE(fs::exists(scratch / "softmax" / "v5.json"));
}

// A stale ACCEPT above the best (here the best itself, v4, edited after its
// record) would make the gate compare v5 with v1: a no-op edit would lower
// the bar unnoticed (seen in an audit: a variant 2.5x slower than the
// fastest accepted code became the best). Refused before anything runs
// until the record is current again or masked.
TEST_F(optimize_test, a_stale_best_is_refused_until_restored_or_masked) {
  fake_harness_env env;
  env.set("KOPT_FAKE_LOG", c.path("harness.log").string())
      .set("KOPT_FAKE_TEST_RESULTS", c.path("results/correct.v5.json").string())
      .set("KOPT_FAKE_BENCH_OUT", c.path("bench/bench.v5.json").string());
  const std::string v4_source = read_text(c.path("src/v4_warp_per_row.cpp"));
  write_text(c.path("src/v4_warp_per_row.cpp"), v4_source + "// reformatted\n");
  const std::vector<std::string> optimize = {"optimize", "--manifest", c.manifest(), "--variant", "v5",
                                             "--ceilings", c.path("ceilings.json").string()};
  const run_result refused = run_kopt(optimize);
  EXPECT_EQ(refused.m_code, 2) << refused.m_out << refused.m_err;
  EXPECT_TRUE(contains(refused.m_err, "cannot gate v5: accepted v4 (sources changed since the record")) << refused.m_err;
  EXPECT_TRUE(contains(refused.m_err, "is stale, so the best so far would fall back to an older record unnoticed: "
                                      "restore what changed, or mask it (kopt mask --variant v4"))
      << refused.m_err;
  EXPECT_FALSE(fs::exists(c.path("harness.log"))) << "the harness ran";
  EXPECT_FALSE(fs::exists(c.record("v5")));
  // kopt gate on a record after it says the same, as its order rule.
  const run_result gate = run_kopt({"gate", "--manifest", c.manifest(), "--variant", "v4"});
  EXPECT_TRUE(contains(gate.m_out, "ok    order")) << gate.m_out;  // v4 itself is not above the best before it
  // Masking it is the explicit way to lower the bar.
  ASSERT_EQ(run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v4", "--reason", "edited"}).m_code, 0);
  const run_result after = run_kopt(optimize);
  EXPECT_FALSE(contains(after.m_err, "cannot gate v5")) << after.m_err;
  EXPECT_TRUE(fs::exists(c.record("v5"))) << after.m_out << after.m_err;
}

TEST_F(optimize_test, without_a_gpu_it_says_what_it_skipped_and_writes_no_record) {
  fake_harness_env env;
  env.set("KOPT_FAKE_LOG", c.path("harness.log").string())
      .set("KOPT_FAKE_TEST_RESULTS", c.path("results/correct.v5.skipped.json").string())
      .set("KOPT_FAKE_TEST_EXIT", "77")
      .set("KOPT_FAKE_BENCH_EXIT", "77");
  const run_result r = run_kopt({"optimize", "--manifest", c.manifest(), "--quick"});
  EXPECT_EQ(r.m_code, 77) << r.m_out << r.m_err;
  EXPECT_TRUE(contains(r.m_out, "[6/8] record: not written (nothing measured)")) << r.m_out;
  EXPECT_TRUE(contains(r.m_out,
                       "SKIPPED: correctness tests (no CUDA device visible: cudaErrorNoDevice); "
                       "benchmark (the bench exited 77: no device to time on)"))
      << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "no record written for v5")) << r.m_out;
  EXPECT_FALSE(fs::exists(c.record("v5")));
  EXPECT_TRUE(contains(log(), "--benchmark_out_format=json --kopt_quick --kopt_timeout=570\n")) << log();
  EXPECT_TRUE(fs::exists(c.path("records/softmax/report/report.md")));  // the report needs no GPU
}

TEST_F(optimize_test, a_kernel_without_bench_target_is_skipped) {
  json m = read_json_file(c.manifest());
  m["executables"]["bench"] = "";
  write_text(c.manifest(), m.dump(2));
  fake_harness_env env;
  env.set("KOPT_FAKE_TEST_RESULTS", c.path("results/correct.v5.json").string());
  const run_result r = run_kopt({"optimize", "--manifest", c.manifest()});
  EXPECT_EQ(r.m_code, 77) << r.m_out << r.m_err;
  EXPECT_TRUE(contains(r.m_out, "SKIPPED: benchmark (no benchmark executable for softmax")) << r.m_out;
  EXPECT_FALSE(fs::exists(c.record("v5")));
  const run_result perf = run_kopt({"perf", "--manifest", c.manifest()});
  EXPECT_EQ(perf.m_code, 77);
  EXPECT_TRUE(contains(perf.m_out, "SKIPPED: no benchmark executable")) << perf.m_out;
}

// A failure is a verdict (docs/reliability.md, "Faults"): a crashed test
// gets a REJECT record naming the cause, it can be masked, and the loop
// moves on instead of picking it again.
TEST_F(optimize_test, a_crashed_test_is_a_reject_record_and_the_loop_moves_on) {
  fake_harness_env env;
  env.set("KOPT_FAKE_TEST_EXIT", "3").set("KOPT_FAKE_BENCH_OUT", c.path("bench/bench.v5.json").string());
  const run_result r = run_kopt({"optimize", "--manifest", c.manifest(), "--variant", "v5"});
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_err, "correctness: the test " + fs::path(KOPT_FAKE_HARNESS).filename().string() +
                                    " ended with exit code 3, writing no results"))
      << r.m_err;
  EXPECT_TRUE(contains(r.m_out, "FAIL  run          the correctness test ended with exit code 3, writing no results"))
      << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "[3/8] benchmark: not run (the correctness test did not finish)")) << r.m_out;
  ASSERT_TRUE(fs::exists(c.record("v5")));
  const record v5 = read_record(c.record("v5"));
  EXPECT_EQ(v5.m_gate.m_decision, "REJECT");
  EXPECT_EQ(v5.m_correctness.m_status, "incomplete");
  EXPECT_TRUE(v5.m_timing.m_shapes.at(0).m_error.has_value());
  // Consistent (its decision follows from its evidence) and maskable.
  const run_result gate = run_kopt({"gate", "--manifest", c.manifest(), "--variant", "v5"});
  EXPECT_FALSE(contains(gate.m_out, "inconsistent")) << gate.m_out;
  EXPECT_EQ(run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v5", "--reason", "crashes"}).m_code, 0);
  const run_result next = run_kopt({"optimize", "--manifest", c.manifest()});
  EXPECT_TRUE(contains(next.m_out, "nothing to optimize")) << next.m_out;
}

// A skip (exit 77) is the harness's, which says why in its results: a test
// that exits 77 without them (a variant ending the process itself) gets a
// REJECT record, and the loop moves on.
TEST_F(optimize_test, exit_77_without_skipped_results_is_a_reject_record) {
  fake_harness_env env;
  env.set("KOPT_FAKE_TEST_EXIT", "77").set("KOPT_FAKE_BENCH_OUT", c.path("bench/bench.v5.json").string());
  const run_result r = run_kopt({"optimize", "--manifest", c.manifest(), "--variant", "v5"});
  EXPECT_EQ(r.m_code, 1) << r.m_out << r.m_err;
  EXPECT_TRUE(contains(r.m_out, "FAIL  run          the correctness test ended with exit code 77 (a skip) without "
                                "results that say it skipped"))
      << r.m_out;
  ASSERT_TRUE(fs::exists(c.record("v5")));
  EXPECT_EQ(read_record(c.record("v5")).m_gate.m_decision, "REJECT");
}

// The tests ran here, so the benchmark has no device to miss: its exit 77 is
// a failure of the step, not a skip that leaves no record.
TEST_F(optimize_test, a_benchmark_that_exits_77_after_the_tests_ran_is_a_reject_record) {
  fake_harness_env env;
  env.set("KOPT_FAKE_TEST_RESULTS", c.path("results/correct.v5.json").string()).set("KOPT_FAKE_BENCH_EXIT", "77");
  const run_result r = run_kopt({"optimize", "--manifest", c.manifest(), "--variant", "v5"});
  EXPECT_EQ(r.m_code, 1) << r.m_out << r.m_err;
  EXPECT_TRUE(contains(r.m_out, "FAIL  run          the benchmark ended with exit code 77 (a skip), although the "
                                "correctness tests ran here"))
      << r.m_out;
  EXPECT_FALSE(contains(r.m_out, "SKIPPED")) << r.m_out;
  ASSERT_TRUE(fs::exists(c.record("v5")));
  EXPECT_EQ(read_record(c.record("v5")).m_gate.m_decision, "REJECT");
}

// A benchmark (or test) that exits 0 but leaves results that do not read (a
// variant called exit(0) before they were written) is a failure of the
// step: a REJECT record, not a kopt input error that leaves none.
TEST_F(optimize_test, results_that_do_not_read_after_exit_0_are_a_reject_record) {
  fake_harness_env env;
  const fs::path empty = c.path("empty.json");
  std::ofstream(empty).close();
  env.set("KOPT_FAKE_TEST_RESULTS", c.path("results/correct.v5.json").string())
      .set("KOPT_FAKE_BENCH_OUT", empty.string());
  const run_result r = run_kopt({"optimize", "--manifest", c.manifest(), "--variant", "v5"});
  EXPECT_EQ(r.m_code, 1) << r.m_out << r.m_err;
  EXPECT_TRUE(contains(r.m_out, "FAIL  run          the benchmark ended with exit code 0, but its results do not read"))
      << r.m_out;
  ASSERT_TRUE(fs::exists(c.record("v5")));
  EXPECT_EQ(read_record(c.record("v5")).m_gate.m_decision, "REJECT");

  fs::remove(c.record("v5"));
  env.set("KOPT_FAKE_TEST_RESULTS", empty.string());
  const run_result t = run_kopt({"optimize", "--manifest", c.manifest(), "--variant", "v5"});
  EXPECT_EQ(t.m_code, 1) << t.m_out << t.m_err;
  EXPECT_TRUE(contains(t.m_out, "FAIL  run          the correctness test ended with exit code 0, but its results do "
                                "not read"))
      << t.m_out;
  EXPECT_TRUE(fs::exists(c.record("v5")));
}

// A test killed by a signal (a segfault, an abort) is a REJECT record too,
// naming the signal.
class optimize_signal : public optimize_test, public ::testing::WithParamInterface<int> {};

TEST_P(optimize_signal, is_a_reject_record_naming_the_signal) {
  fake_harness_env env;
  env.set("KOPT_FAKE_TEST_SIGNAL", std::to_string(GetParam()));
  const run_result r = run_kopt({"optimize", "--manifest", c.manifest(), "--variant", "v5"});
  EXPECT_EQ(r.m_code, 1) << r.m_out << r.m_err;
  const std::string name = "signal " + std::to_string(GetParam()) + " (" + strsignal(GetParam()) + ")";
  EXPECT_TRUE(contains(r.m_out, "FAIL  run          the correctness test ended with " + name)) << r.m_out;
  ASSERT_TRUE(fs::exists(c.record("v5")));
  EXPECT_EQ(read_record(c.record("v5")).m_gate.m_decision, "REJECT");
}

INSTANTIATE_TEST_SUITE_P(optimize, optimize_signal, ::testing::Values(SIGSEGV, SIGABRT, SIGFPE));

TEST_F(optimize_test, refuses_a_recorded_variant_and_reports_a_finished_list) {
  const run_result recorded = run_kopt({"optimize", "--manifest", c.manifest(), "--variant", "v4"});
  EXPECT_EQ(recorded.m_code, 2);
  EXPECT_TRUE(contains(recorded.m_err, "the record of v4 exists")) << recorded.m_err;
  fake_harness_env env;
  env.set("KOPT_FAKE_TEST_RESULTS", c.path("results/correct.v5.json").string())
      .set("KOPT_FAKE_BENCH_OUT", c.path("bench/bench.v5.json").string());
  ASSERT_EQ(run_kopt({"optimize", "--manifest", c.manifest()}).m_code, 0);
  const run_result done = run_kopt({"optimize", "--manifest", c.manifest()});
  EXPECT_EQ(done.m_code, 0);
  EXPECT_TRUE(contains(done.m_out, "nothing to optimize: every declared variant of softmax has a record; declare the next one"))
      << done.m_out;
}

TEST_F(optimize_test, perf_passes_on_the_same_binary_and_fails_on_a_slowdown) {
  {
    fake_harness_env env;
    env.set("KOPT_FAKE_LOG", c.path("harness.log").string())
        .set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.same.json").string());
    const run_result same = run_kopt({"perf", "--manifest", c.manifest(), "--quick"});
    EXPECT_EQ(same.m_code, 0) << same.m_out << same.m_err;
    EXPECT_TRUE(contains(same.m_out, "perf softmax: best is v4")) << same.m_out;
    EXPECT_TRUE(contains(same.m_out, "target gbps >= 0.85*ceiling.copy_bandwidth: met (record: met)"))
        << same.m_out;
    EXPECT_TRUE(contains(log(), "--benchmark_filter=^softmax/(v4)/ ")) << log();
    EXPECT_TRUE(contains(log(), "--kopt_quick")) << log();
  }
  fake_harness_env env;
  env.set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.slower.json").string());
  const run_result slower = run_kopt({"perf", "--manifest", c.manifest()});
  EXPECT_EQ(slower.m_code, 1) << slower.m_out;
  EXPECT_TRUE(contains(slower.m_out, "| SLOWER |")) << slower.m_out;
  EXPECT_TRUE(contains(slower.m_out, "FAIL: slower than the record beyond band and noise")) << slower.m_out;
  EXPECT_TRUE(contains(slower.m_out, "reference: record v4 (one run)")) << slower.m_out;
  EXPECT_TRUE(contains(slower.m_out, "the run-to-run spread is not measured")) << slower.m_out;
}

// kopt baseline: N processes of the best, the spread per shape stored
// beside the records per GPU model; perf then compares against it with
// the measured band.
TEST_F(optimize_test, baseline_measures_the_spread_and_perf_uses_it) {
  const fs::path seq = c.path("seq");
  fs::create_directories(seq);
  const json same = read_json_file(c.path("bench/perf.same.json"));
  const double factors[] = {1.0, 1.012, 0.99, 1.006, 0.996};  // ~0.9 % run-to-run spread
  for (int i = 0; i < 5; ++i) {
    json run = same;
    for (json& b : run["benchmarks"]) b["kopt"]["median_ns"] = b["kopt"]["median_ns"].get<double>() * factors[i];
    write_json_atomic(seq / (std::to_string(i) + ".json"), run);
  }
  run_result b;
  {
    fake_harness_env env;
    env.set("KOPT_FAKE_BENCH_SEQ", seq.string());
    b = run_kopt({"baseline", "--manifest", c.manifest(), "--runs", "5"});
  }
  ASSERT_EQ(b.m_code, 0) << b.m_out << b.m_err;
  const fs::path file = c.path("records/softmax/perf/v4.host-x86-64.json");
  ASSERT_TRUE(fs::exists(file)) << b.m_out;
  EXPECT_TRUE(contains(b.m_out, "wrote " + file.string())) << b.m_out;
  const json doc = read_json_file(file);
  EXPECT_EQ(doc["kind"], "kernelopt.perf_baseline");
  EXPECT_EQ(doc["runs"], 5);
  EXPECT_NEAR(doc["shapes"][0]["spread"].get<double>(), 0.0086, 0.0005);

  // 2.5 % slower on every shape: beyond the 2 % floor, but within
  // 3 x 0.86 % x sqrt(1.2) = 2.8 %: the measured spread keeps it SAME.
  json slower = same;
  for (json& r : slower["benchmarks"]) r["kopt"]["median_ns"] = r["kopt"]["median_ns"].get<double>() * 1.025;
  write_json_atomic(c.path("bench/perf.slower25.json"), slower);
  fake_harness_env env2;
  env2.set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.slower25.json").string());
  const run_result ok = run_kopt({"perf", "--manifest", c.manifest()});
  EXPECT_EQ(ok.m_code, 0) << ok.m_out << ok.m_err;
  EXPECT_TRUE(contains(ok.m_out, "reference: baseline " + file.string() + " (5 runs on host (x86_64))")) << ok.m_out;
  EXPECT_TRUE(contains(ok.m_out, "| band |")) << ok.m_out;
  // 5 % slower: beyond the band.
  env2.set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.slower.json").string());
  const run_result fail = run_kopt({"perf", "--manifest", c.manifest()});
  EXPECT_EQ(fail.m_code, 1) << fail.m_out;
  EXPECT_TRUE(contains(fail.m_out, "FAIL: slower than the baseline beyond band and noise")) << fail.m_out;

  // Another GPU model: the record does not compare, a baseline made there does.
  json other = same;
  other["kopt"]["device"] = "NVIDIA H200";
  write_json_atomic(c.path("bench/perf.h200.json"), other);
  env2.set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.h200.json").string());
  const run_result no_ref = run_kopt({"perf", "--manifest", c.manifest(), "--missing", "fail"});
  EXPECT_EQ(no_ref.m_code, 1) << no_ref.m_out;
  EXPECT_TRUE(contains(no_ref.m_out, "FAIL: the perf gate did not run (--missing fail): v4 was timed on host (x86_64), "
                                     "this run on NVIDIA H200, and there is no baseline for NVIDIA H200"))
      << no_ref.m_out;
  for (int i = 0; i < 3; ++i) write_json_atomic(seq / (std::to_string(i) + ".json"), other);
  fs::remove(seq / "count");
  env2.set("KOPT_FAKE_BENCH_SEQ", seq.string());
  const run_result h200 = run_kopt({"baseline", "--manifest", c.manifest(), "--runs", "3"});
  env2.set("KOPT_FAKE_BENCH_SEQ", "");
  ASSERT_EQ(h200.m_code, 0) << h200.m_out << h200.m_err;
  EXPECT_TRUE(fs::exists(c.path("records/softmax/perf/v4.nvidia-h200.json")));
  EXPECT_TRUE(fs::exists(file));  // side by side
  const run_result on_h200 = run_kopt({"perf", "--manifest", c.manifest(), "--missing", "fail"});
  EXPECT_EQ(on_h200.m_code, 0) << on_h200.m_out << on_h200.m_err;
  EXPECT_TRUE(contains(on_h200.m_out, "(3 runs on NVIDIA H200)")) << on_h200.m_out;
}

TEST_F(optimize_test, perf_missing_fail_turns_a_skip_into_a_failure) {
  fake_harness_env env;
  env.set("KOPT_FAKE_BENCH_EXIT", "77");
  const run_result skip = run_kopt({"perf", "--manifest", c.manifest()});
  EXPECT_EQ(skip.m_code, 77);
  EXPECT_TRUE(contains(skip.m_out, "SKIPPED: the benchmark exited 77 (no device to time on)")) << skip.m_out;
  const run_result fail = run_kopt({"perf", "--manifest", c.manifest(), "--missing", "fail"});
  EXPECT_EQ(fail.m_code, 1);
  EXPECT_TRUE(contains(fail.m_out, "FAIL: the perf gate did not run (--missing fail): the benchmark exited 77"))
      << fail.m_out;
  const run_result bad = run_kopt({"perf", "--manifest", c.manifest(), "--missing", "maybe"});
  EXPECT_EQ(bad.m_code, 2);
  EXPECT_TRUE(contains(bad.m_err, "--missing must be skip or fail, got 'maybe'")) << bad.m_err;
}

// Records say which GPU timed them; perf says when this run's GPU is
// another board of the same model (they differ by a few percent).
TEST_F(optimize_test, perf_notes_another_board_of_the_same_model) {
  json record = read_json_file(c.path("records/softmax/v4.json"));
  record["timing"]["gpu"] = {{"index", 0}, {"uuid", "GPU-aaaa"}};
  write_json_atomic(c.path("records/softmax/v4.json"), record);
  json bench = read_json_file(c.path("bench/perf.same.json"));
  bench["kopt"]["gpu"] = {{"index", 1}, {"uuid", "GPU-bbbb"}};
  write_json_atomic(c.path("bench/perf.other_board.json"), bench);
  fake_harness_env env;
  env.set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.other_board.json").string());
  const run_result r = run_kopt({"perf", "--manifest", c.manifest(), "--quick"});
  EXPECT_EQ(r.m_code, 0) << r.m_out << r.m_err;
  EXPECT_TRUE(contains(r.m_out, "note: the record was timed on GPU-aaaa, this run on GPU-bbbb")) << r.m_out;

  bench["kopt"]["gpu"] = "GPU-bbbb";  // not an object: an input error naming file and field
  write_json_atomic(c.path("bench/perf.bad_gpu.json"), bench);
  env.set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.bad_gpu.json").string());
  const run_result bad = run_kopt({"perf", "--manifest", c.manifest(), "--quick"});
  EXPECT_EQ(bad.m_code, 2) << bad.m_out << bad.m_err;
  EXPECT_TRUE(contains(bad.m_err, "/kopt/gpu: expected an object")) << bad.m_err;
}

TEST_F(optimize_test, perf_fails_when_a_target_no_longer_holds) {
  fake_harness_env env;
  // 12% slower: gbps falls below 0.85 x copy_bandwidth.
  json bench = read_json_file(c.path("bench/perf.slower.json"));
  for (json& b : bench["benchmarks"]) {
    const double median = b["kopt"]["median_ns"].get<double>() * 1.07;
    b["kopt"]["median_ns"] = median;
    b["kopt"]["gbps"] = b["kopt"]["bytes"].get<double>() / median;
  }
  write_text(c.path("bench/perf.target.json"), bench.dump(2));
  env.set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.target.json").string());
  const run_result r = run_kopt({"perf", "--manifest", c.manifest()});
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "unmet (record: met)  <- no longer holds")) << r.m_out;
}

TEST_F(optimize_test, perf_does_not_compare_across_devices) {
  json bench = read_json_file(c.path("bench/perf.slower.json"));
  bench["kopt"]["device"] = "another GPU";
  write_text(c.path("bench/perf.other.json"), bench.dump(2));
  fake_harness_env env;
  env.set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.other.json").string());
  const run_result r = run_kopt({"perf", "--manifest", c.manifest()});
  EXPECT_EQ(r.m_code, 77);
  EXPECT_TRUE(contains(r.m_out, "SKIPPED: v4 was timed on host (x86_64), this run on another GPU"))
      << r.m_out;
}

// An implementation declared EXPECT_FAILURE fails its output check by
// design: perf does not time it beside the best (a TARGET over it is not
// evaluated), and a best declared EXPECT_FAILURE is an error saying what to do.
TEST_F(optimize_test, perf_does_not_time_an_expected_failure) {
  json declared = read_json_file(c.manifest());
  declared["targets"].push_back("speedup_vs_vendor >= 0.5");
  declared["baselines"][0]["expect_failure"] = "mismatch";
  write_json_atomic(c.manifest(), declared);
  fake_harness_env env;
  env.set("KOPT_FAKE_LOG", c.path("harness.log").string())
      .set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.same.json").string());
  const run_result r = run_kopt({"perf", "--manifest", c.manifest(), "--quick"});
  EXPECT_EQ(r.m_code, 0) << r.m_out << r.m_err;
  EXPECT_TRUE(contains(r.m_out, "note: vendor is declared EXPECT_FAILURE (known to be incorrect): not timed"))
      << r.m_out;
  EXPECT_TRUE(contains(log(), "--benchmark_filter=^softmax/(v4)/ ")) << log();

  for (json& variant : declared["variants"]) {
    if (variant["name"] == "v4") variant["expect_failure"] = "mismatch";
  }
  write_json_atomic(c.manifest(), declared);
  const run_result best = run_kopt({"perf", "--manifest", c.manifest(), "--quick"});
  EXPECT_EQ(best.m_code, 1) << best.m_out;
  EXPECT_TRUE(contains(best.m_err, "v4 is declared EXPECT_FAILURE (known to be incorrect): mask its record"))
      << best.m_err;
}

// --json: progress on stderr, one versioned document on stdout.
TEST_F(optimize_test, json_documents_of_optimize_and_perf) {
  {
    fake_harness_env env;
    env.set("KOPT_FAKE_LOG", c.path("harness.log").string())
        .set("KOPT_FAKE_TEST_RESULTS", c.path("results/correct.v5.json").string())
        .set("KOPT_FAKE_BENCH_OUT", c.path("bench/bench.v5.json").string());
    const run_result r = run_kopt({"optimize", "--manifest", c.manifest(), "--ceilings",
                                   c.path("ceilings.json").string(), "--json"});
    EXPECT_EQ(r.m_code, 0) << r.m_out << r.m_err;
    EXPECT_TRUE(contains(r.m_err, "[7/8] gate")) << r.m_err;
    const json doc = parse_json_text(r.m_out, "stdout");
    EXPECT_EQ(doc["kind"], "kernelopt.optimize");
    EXPECT_EQ(doc["schema_version"], 1);
    for (const char* key : {"kernel", "variant", "outcome", "decision", "record", "skipped", "failure", "gate",
                            "exit_code"}) {
      EXPECT_TRUE(doc.contains(key)) << key;
    }
    EXPECT_EQ(doc["variant"], "v5");
    EXPECT_EQ(doc["decision"], "ACCEPT");
    EXPECT_EQ(doc["outcome"], "ACCEPT");
    EXPECT_EQ(doc["exit_code"], 0);
    EXPECT_TRUE(contains(r.m_err, "experience -> ")) << r.m_err;  // its entry went into the store
  }
  {
    const run_result done = run_kopt({"optimize", "--manifest", c.manifest(), "--json"});
    EXPECT_EQ(parse_json_text(done.m_out, "stdout")["outcome"], "nothing_left");
  }
  {
    fake_harness_env env;
    env.set("KOPT_FAKE_LOG", c.path("harness.log").string())
        .set("KOPT_FAKE_BENCH_OUT", c.path("bench/perf.same.json").string());
    mask_v5();
    const run_result perf = run_kopt({"perf", "--manifest", c.manifest(), "--quick", "--json"});
    EXPECT_EQ(perf.m_code, 0) << perf.m_out << perf.m_err;
    const json doc = parse_json_text(perf.m_out, "stdout");
    EXPECT_EQ(doc["kind"], "kernelopt.perf");
    EXPECT_EQ(doc["schema_version"], 1);
    for (const char* key : {"kernel", "best", "outcome", "reason", "compare", "targets", "exit_code"}) {
      EXPECT_TRUE(doc.contains(key)) << key;
    }
    EXPECT_EQ(doc["best"], "v4");
    EXPECT_EQ(doc["outcome"], "ok");
    EXPECT_EQ(doc["compare"]["kind"], "kernelopt.compare");
  }
}

TEST(perf_skips, without_an_accepted_record_or_a_device) {
  scratch_case c;
  const run_result none = run_kopt({"perf", "--manifest", c.manifest()});
  EXPECT_EQ(none.m_code, 77);
  EXPECT_TRUE(contains(none.m_out, "SKIPPED: no accepted record of softmax yet")) << none.m_out;
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  fake_harness_env env;
  env.set("KOPT_FAKE_BENCH_EXIT", "77");
  const run_result skipped = run_kopt({"perf", "--manifest", c.manifest()});
  EXPECT_EQ(skipped.m_code, 77);
  EXPECT_TRUE(contains(skipped.m_out, "SKIPPED: the benchmark exited 77")) << skipped.m_out;
}

}  // namespace
}  // namespace kopt::test
