// kopt recommend (docs/agents.md): the seed scoring on a fixed store, and
// the command reading a store and printing text and --json.
#include <gtest/gtest.h>

#include <cmath>

#include "core/json_io.hpp"
#include "kopt/experience/entry.hpp"
#include "kopt/experience/recommend.hpp"
#include "kopt/experience/store.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

experience_entry entry(const std::string& kernel, const std::string& backend, const std::string& gpu,
                       const std::string& bottleneck, const std::string& method, const std::string& outcome,
                       double speedup, const std::string& date, const std::string& variant) {
  experience_entry e;
  e.m_kernel = kernel;
  e.m_kernel_class = kernel;
  e.m_dtype = "f32";
  e.m_backend = backend;
  e.m_gpu = gpu;
  e.m_variant = variant;
  e.m_parent = "v0";
  e.m_bottleneck_before = bottleneck;
  e.m_bottleneck_after = bottleneck;
  e.m_methods = {method};
  e.m_hypothesis = "expect faster";
  e.m_speedup_vs_parent = speedup;
  e.m_decision = outcome == "success" ? "ACCEPT" : "REJECT";
  e.m_outcome = outcome;
  e.m_date = date;
  e.m_source = {"fixed", kernel + "/" + variant + ".json", "hash-" + kernel + variant};
  e.m_id = entry_id(e);
  return e;
}

// The fixed store of docs/agents.md's worked example.
std::vector<experience_entry> fixed_store() {
  return {entry("softmax", "cuda", "H100", "memory-bound", "warp_shuffle", "success", 2.0, "2026-01-01T00:00:00Z", "v1"),
          entry("gemm", "cuda", "H100", "memory-bound", "smem_tiling", "success", 4.0, "2026-01-01T00:00:00Z", "v1"),
          entry("softmax", "cuda", "A100", "latency-bound", "ldg128", "neutral", 1.03, "2025-07-05T00:00:00Z", "v2"),
          entry("softmax", "cuda", "H100", "memory-bound", "unroll", "failure", 0.98, "2026-01-01T00:00:00Z", "v3"),
          entry("other", "host", "host", "not profiled", "warp_shuffle", "success", 1.5, "2026-01-01T00:00:00Z", "v1")};
}

TEST(recommend, seed_scoring_on_a_fixed_store) {
  const std::vector<experience_entry> store = fixed_store();
  recommend_query q;
  q.m_kernel = "softmax";
  q.m_backend = "cuda";
  q.m_gpu = "H100";
  q.m_bottleneck = "memory-bound";
  const recommend_result r = recommend(store, q);
  ASSERT_EQ(r.m_ranked.size(), 4u);
  // warp_shuffle: 50 + 40 + 30 + 20 + 10 * log2(2) + 5 (newest) = 155
  EXPECT_EQ(r.m_ranked[0].m_method, "warp_shuffle");
  EXPECT_NEAR(r.m_ranked[0].m_score, 155, 1e-9);
  EXPECT_EQ(r.m_ranked[0].m_evidence.size(), 2u);  // softmax/v1 and other/v1, best first
  EXPECT_EQ(r.m_ranked[0].m_evidence[0].m_entry->m_kernel, "softmax");
  EXPECT_NEAR(r.m_ranked[0].m_evidence[1].m_score, 10 * std::log2(1.5) + 5, 1e-9);
  // smem_tiling: 50 + 30 + 20 + min(10, 10 * log2(4)) + 5 = 115 (another kernel)
  EXPECT_EQ(r.m_ranked[1].m_method, "smem_tiling");
  EXPECT_NEAR(r.m_ranked[1].m_score, 115, 1e-9);
  EXPECT_TRUE(r.m_ranked[1].m_tried.empty());
  // ldg128: neutral, half of 50 + 40 + 10 * log2(1.03) + 5 * (1 - 180 / 365)
  EXPECT_EQ(r.m_ranked[2].m_method, "ldg128");
  EXPECT_NEAR(r.m_ranked[2].m_score, 0.5 * (90 + 10 * std::log2(1.03) + 5 * (1 - 180.0 / 365)), 1e-9);
  // unroll: a failure scores 0 and is marked as tried here.
  EXPECT_EQ(r.m_ranked[3].m_method, "unroll");
  EXPECT_EQ(r.m_ranked[3].m_score, 0);
  ASSERT_EQ(r.m_ranked[3].m_tried.size(), 1u);
  EXPECT_EQ(r.m_ranked[3].m_tried[0].m_variant, "v3");
  EXPECT_EQ(r.m_ranked[3].m_tried[0].m_outcome, "failure");

  // Another GPU and bottleneck change the order: --top cuts it.
  q.m_gpu = "A100";
  q.m_bottleneck = "latency-bound";
  q.m_top = 2;
  const recommend_result other = recommend(store, q);
  ASSERT_EQ(other.m_ranked.size(), 2u);
  EXPECT_EQ(other.m_ranked[0].m_method, "warp_shuffle");  // 50 + 40 + 10 + 5 = 105
  // ldg128, neutral but on this GPU and bottleneck: half of 50 + 40 + 30 + 20 + 0.43 + 2.53 = 71.5,
  // ahead of smem_tiling's 50 + 10 + 5 = 65.
  EXPECT_EQ(other.m_ranked[1].m_method, "ldg128");
  EXPECT_NEAR(other.m_ranked[1].m_score, 0.5 * (140 + 10 * std::log2(1.03) + 5 * (1 - 180.0 / 365)), 1e-9);
}

TEST(recommend, command_reads_the_store_and_prints_json) {
  scratch_case c;
  const fs::path store = c.path("store");
  for (const experience_entry& e : fixed_store()) ASSERT_TRUE(add_experience(store, e));
  const run_result text = run_kopt({"recommend", "--kernel", "softmax", "--store", store.string(), "--gpu", "H100",
                                    "--bottleneck", "memory-bound"});
  EXPECT_EQ(text.m_code, 0) << text.m_err;
  EXPECT_NE(text.m_out.find("1. warp_shuffle  score 155"), std::string::npos) << text.m_out;
  EXPECT_NE(text.m_out.find("tried here: v3 failure"), std::string::npos) << text.m_out;
  EXPECT_NE(text.m_out.find("softmax/v1.json success 2.00x"), std::string::npos) << text.m_out;
  const run_result r = run_kopt({"recommend", "--kernel", "softmax", "--store", store.string(), "--json"});
  ASSERT_EQ(r.m_code, 0) << r.m_err;
  const json doc = parse_stdout(r.m_out);
  expect_schema(doc, "kernelopt.recommend", {"kernel", "store", "entries", "query", "recommendations"});
  // Defaults from the kernel's newest entry: cuda, H100, memory-bound.
  EXPECT_EQ(doc["query"]["gpu"], "H100");
  EXPECT_EQ(doc["recommendations"][0]["method"], "warp_shuffle");
  for (const char* key : {"score", "successes", "neutral", "failures", "tried_on_kernel", "evidence"}) {
    EXPECT_TRUE(doc["recommendations"][0].contains(key)) << key;
  }
  EXPECT_EQ(doc["recommendations"][0]["evidence"][0]["record"], "softmax/v1.json");
  EXPECT_EQ(run_kopt({"recommend", "--kernel", "softmax", "--store", store.string(), "--top", "0"}).m_code, 2);
}

}  // namespace
}  // namespace kopt::test
