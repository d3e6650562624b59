// The compare rule (verdict.hpp) and `kopt compare`.
#include <gtest/gtest.h>

#include <cmath>

#include "core/json_io.hpp"
#include "kopt/compare/verdict.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

timing_point point(const std::string& impl, const std::string& shape, double median_ns, double noise) {
  timing_point p{impl, shape, {}};
  p.m_stats.m_median_ns = median_ns;
  p.m_stats.m_noise = noise;
  p.m_stats.m_samples = 100;
  return p;
}

TEST(compare_rule, classify) {
  EXPECT_EQ(classify(0.015, 0.001, 0.02), verdict::same);  // within threshold, however sure
  EXPECT_EQ(classify(-0.02, 0.001, 0.02), verdict::same);
  EXPECT_EQ(classify(0.03, 0.004, 0.02), verdict::slower);  // 3% > 3 x 0.4%
  EXPECT_EQ(classify(-0.05, 0.004, 0.02), verdict::faster);
  EXPECT_EQ(classify(0.03, 0.02, 0.02), verdict::unsure);  // beyond threshold, within noise
  EXPECT_EQ(classify(0.03, std::nullopt, 0.02), verdict::unsure);
}

// Two runs of one binary: medians drift by run-to-run noise only. Sampling
// stops at max_noise 0.5%, so each median's relative error is <= 0.5%; a
// drift of up to 2% between runs must never read SLOWER.
TEST(compare_rule, same_binary_twice_is_never_slower) {
  std::vector<timing_point> base;
  std::vector<timing_point> next;
  unsigned state = 12345;
  auto uniform = [&state] {
    state = state * 1103515245u + 12345u;
    return static_cast<double>((state >> 8) & 0xffff) / 65535.0;
  };
  for (int i = 0; i < 200; ++i) {
    const std::string shape = "n=" + std::to_string(i);
    const double noise = 0.001 + 0.004 * uniform();
    base.push_back(point("v4", shape, 1000.0, noise));
    next.push_back(point("v4", shape, 1000.0 * (1 + 0.04 * (uniform() - 0.5)), noise));  // within +-2%
  }
  const compare_result result = compute_verdicts(base, next, k_default_threshold);
  EXPECT_FALSE(result.any_slower());
}

TEST(compare_rule, true_three_percent_slowdown_is_caught) {
  const std::vector<timing_point> base = {point("v4", "a", 1000.0, 0.004), point("v4", "b", 2000.0, 0.005)};
  const std::vector<timing_point> next = {point("v4", "a", 1030.0, 0.004), point("v4", "b", 2060.0, 0.005)};
  const compare_result result = compute_verdicts(base, next, k_default_threshold);
  ASSERT_EQ(result.m_rows.size(), 2u);
  EXPECT_EQ(result.m_rows[0].m_verdict, verdict::slower);
  EXPECT_EQ(result.m_rows[1].m_verdict, verdict::slower);
  ASSERT_TRUE(result.m_geomean);
  EXPECT_NEAR(result.m_geomean->m_change, 0.03, 1e-12);
  EXPECT_EQ(result.m_geomean->m_verdict, verdict::slower);
}

TEST(compare_rule, geomean_row_sees_what_single_rows_cannot) {
  std::vector<timing_point> base;
  std::vector<timing_point> next;
  for (const char* shape : {"a", "b", "c", "d"}) {
    base.push_back(point("v1", shape, 100.0, 0.01));
    next.push_back(point("v1", shape, 102.5, 0.01));
  }
  const compare_result result = compute_verdicts(base, next, k_default_threshold);
  for (const verdict_row& row : result.m_rows) EXPECT_EQ(row.m_verdict, verdict::unsure);  // 2.5% < 3 x 1.41%
  EXPECT_NEAR(*result.m_geomean->m_noise, std::sqrt(4 * 2e-4) / 4, 1e-12);
  EXPECT_EQ(result.m_geomean->m_verdict, verdict::slower);  // 2.5% > 3 x 0.71%
  EXPECT_TRUE(result.any_slower());
}

TEST(compare_rule, matching_by_impl_and_shape) {
  const std::vector<timing_point> base = {
      point("v1", "a", 100, 0.001), point("ref", "a", 500, 0.001), point("v1", "b", 100, 0.001)};
  const std::vector<timing_point> next = {point("v1", "a", 90, 0.001), point("v1", "c", 100, 0.001)};
  const compare_result result = compute_verdicts(base, next, k_default_threshold);
  ASSERT_EQ(result.m_rows.size(), 1u);
  EXPECT_EQ(result.m_rows[0].m_verdict, verdict::faster);
  EXPECT_EQ(result.m_only_base, (std::vector<std::string>{"ref a", "v1 b"}));
  EXPECT_EQ(result.m_only_new, std::vector<std::string>{"v1 c"});
}

TEST(compare_rule, two_single_variant_sets_match_by_shape) {
  const std::vector<timing_point> base = {point("v1", "a", 100, 0.001)};
  const std::vector<timing_point> next = {point("v4", "a", 80, 0.001)};
  const compare_result result = compute_verdicts(base, next, k_default_threshold);
  ASSERT_EQ(result.m_rows.size(), 1u);
  EXPECT_EQ(result.m_rows[0].m_impl, "v1 -> v4");
  EXPECT_EQ(result.m_rows[0].m_verdict, verdict::faster);
}


class compare_cli : public ::testing::Test {
 protected:
  std::string bench(const std::string& name) const { return c.path("bench/" + name + ".json").string(); }
  scratch_case c;
};

TEST_F(compare_cli, bench_files_golden_and_exit_codes) {
  const run_result slower = run_kopt({"compare", bench("bench.v4"), bench("perf.slower")});
  EXPECT_EQ(slower.m_code, 1);
  expect_golden(replace_all(slower.m_out, c.dir().string(), "DIR"), "softmax/expected/compare.slower.md");
  const run_result same = run_kopt({"compare", bench("bench.v4"), bench("perf.same"), "--format", "json"});
  EXPECT_EQ(same.m_code, 0);
  expect_golden(replace_all(same.m_out, c.dir().string(), "DIR"), "softmax/expected/compare.same.json");
  const json doc = json::parse(same.m_out);
  EXPECT_EQ(doc["geomean"]["verdict"], "SAME");
  EXPECT_EQ(doc["slower"], false);
}

TEST_F(compare_cli, records_and_mixed_inputs) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const run_result records = run_kopt({"compare", c.record("v1").string(), c.record("v4").string()});
  EXPECT_EQ(records.m_code, 0);
  EXPECT_NE(records.m_out.find("| v1 -> v4 | rows=4096,cols=4096 |"), std::string::npos) << records.m_out;
  EXPECT_NE(records.m_out.find("FASTER"), std::string::npos);
  const run_result mixed =
      run_kopt({"compare", c.record("v4").string(), bench("perf.slower"), "--threshold=0.1"});
  EXPECT_EQ(mixed.m_code, 0);  // 5% is within a 10% threshold
  EXPECT_EQ(mixed.m_out.find("SLOWER |"), std::string::npos) << mixed.m_out;
}

TEST_F(compare_cli, bad_arguments_and_inputs) {
  EXPECT_EQ(run_kopt({"compare", bench("bench.v4")}).m_code, 2);
  const run_result threshold =
      run_kopt({"compare", bench("bench.v4"), bench("perf.same"), "--threshold", "two"});
  EXPECT_EQ(threshold.m_code, 2);
  EXPECT_NE(threshold.m_err.find("--threshold must be a fraction in [0, 1), got 'two'"), std::string::npos);
  const run_result format = run_kopt({"compare", bench("bench.v4"), bench("perf.same"), "--format", "html"});
  EXPECT_EQ(format.m_code, 2);
  const run_result neither = run_kopt({"compare", c.path("env.json").string(), bench("perf.same")});
  EXPECT_EQ(neither.m_code, 2);
  // A declared kind decides how a file is read; one compare does not read
  // is an error naming the file and the field.
  EXPECT_NE(neither.m_err.find("env.json: /kind: \"kernelopt.env\" is not what kopt compare reads: a "
                               "kernelopt.record, KernelOpt's benchmark JSON (kopt.kind kernelopt.bench), or "
                               "plain Google Benchmark or NVBench JSON (no kind)"),
            std::string::npos)
      << neither.m_err;
  json bench_doc = json::parse(read_text(bench("perf.same")));
  bench_doc["kopt"]["kind"] = "kernelopt.profile";
  write_text(c.path("bench/other_kind.json"), bench_doc.dump());
  const run_result other = run_kopt({"compare", bench("other_kind"), bench("perf.same")});
  EXPECT_EQ(other.m_code, 2);
  EXPECT_NE(other.m_err.find(bench("other_kind") + ": /kopt/kind: \"kernelopt.profile\" is not what kopt compare reads"),
            std::string::npos)
      << other.m_err;
  write_text(c.path("no_kind.json"), R"({"context": {}})");
  const run_result no_kind = run_kopt({"compare", c.path("no_kind.json").string(), bench("perf.same")});
  EXPECT_EQ(no_kind.m_code, 2);
  EXPECT_NE(no_kind.m_err.find("no_kind.json: /: neither a benchmark JSON file"), std::string::npos) << no_kind.m_err;

  const run_result disjoint = run_kopt({"compare", bench("perf.same"), bench("bench.v0")});
  EXPECT_EQ(disjoint.m_code, 2);
  EXPECT_NE(disjoint.m_err.find("rows match by impl and shape"), std::string::npos) << disjoint.m_err;
}


// KernelOpt's own bench JSON with --benchmark_repetitions=3 (two processes
// of host_matmul's bench on the host backend): each row once, the
// aggregates left out; one file against itself is SAME on every row.
TEST(compare_files, kopt_bench_with_repetitions) {
  const std::string run1 = (k_data_dir / "repetitions/host_matmul_run1.json").string();
  const std::string run2 = (k_data_dir / "repetitions/host_matmul_run2.json").string();
  const run_result self = run_kopt({"compare", run1, run1, "--format", "json"});
  EXPECT_EQ(self.m_code, 0) << self.m_out << self.m_err;
  const json doc = json::parse(self.m_out);
  EXPECT_EQ(doc["schema_version"], 2);
  ASSERT_EQ(doc["rows"].size(), 2u);
  for (const json& row : doc["rows"]) {
    EXPECT_EQ(row["verdict"], "SAME");
    EXPECT_EQ(row["base_repetitions"], 3);
    EXPECT_TRUE(row["p_value"].is_null());  // 3 < 9 repetitions: the noise rule
  }
  const run_result two = run_kopt({"compare", run1, run2});
  EXPECT_EQ(two.m_code, 0) << two.m_out;
}

// Plain Google Benchmark (BM_memcpy, 9 repetitions, GB 1.7.1) and NVBench
// (its own python/scripts/test_ref.json and test_cmp.json, cut down).
TEST(compare_files, google_benchmark_and_nvbench) {
  auto data = [](const std::string& name) { return (k_data_dir / name).string(); };
  const run_result gb_self = run_kopt({"compare", data("gbench/run1.json"), data("gbench/run1.json")});
  EXPECT_EQ(gb_self.m_code, 0) << gb_self.m_out << gb_self.m_err;
  EXPECT_NE(gb_self.m_out.find("| BM_memcpy | 65536 | "), std::string::npos) << gb_self.m_out;
  EXPECT_NE(gb_self.m_out.find("| 9/9 | 1 | SAME |"), std::string::npos) << gb_self.m_out;
  const run_result gb_slower = run_kopt({"compare", data("gbench/run1.json"), data("gbench/slower.json")});
  EXPECT_EQ(gb_slower.m_code, 1) << gb_slower.m_out << gb_slower.m_err;
  EXPECT_NE(gb_slower.m_out.find("| BM_memcpy | 1048576 | "), std::string::npos) << gb_slower.m_out;
  const run_result agg = run_kopt({"compare", data("gbench/aggregates_only.json"),
                                   data("gbench/aggregates_only.json"), "--format", "json"});
  EXPECT_EQ(agg.m_code, 0) << agg.m_out << agg.m_err;
  const json agg_doc = json::parse(agg.m_out);
  ASSERT_EQ(agg_doc["rows"].size(), 2u);
  EXPECT_TRUE(agg_doc["rows"][0]["noise"].is_number());  // from the stddev aggregate

  const run_result nv = run_kopt({"compare", data("nvbench/ref.json"), data("nvbench/cmp.json")});
  EXPECT_EQ(nv.m_code, 0) << nv.m_out << nv.m_err;
  EXPECT_NE(nv.m_out.find("| copy_type_sweep | Device=0 T=U8 | "), std::string::npos) << nv.m_out;
  EXPECT_EQ(nv.m_out.find("In=I8 Out=I8 |"), std::string::npos) << nv.m_out;  // skipped state
  EXPECT_EQ(nv.m_out.find("SLOWER |"), std::string::npos) << nv.m_out;
  const run_result nv_slower = run_kopt({"compare", data("nvbench/ref.json"), data("nvbench/slower5.json")});
  EXPECT_EQ(nv_slower.m_code, 1) << nv_slower.m_out;
  EXPECT_NE(nv_slower.m_out.find("| all | geomean | "), std::string::npos);
}

}  // namespace
}  // namespace kopt::test
