// The agent interface (docs/agents.md): the experience store, recommend's
// seed scoring on a fixed store, the stop conditions of kopt status, and
// the versioned JSON of every deciding command.
#include <gtest/gtest.h>

#include <cmath>

#include "core/json_io.hpp"
#include "kopt/decide/stop.hpp"
#include "kopt/experience/entry.hpp"
#include "kopt/experience/recommend.hpp"
#include "kopt/experience/store.hpp"
#include "kopt/records/record_store.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

json parse(const std::string& text) { return parse_json_text(text, "stdout"); }

// Every --json document: its kind, schema_version 1 and the keys its
// schema in docs/formats.md promises.
void expect_schema(const json& doc, const std::string& kind, const std::vector<std::string>& keys) {
  EXPECT_EQ(doc.value("kind", ""), kind);
  EXPECT_EQ(doc.value("schema_version", 0), 1) << kind;
  for (const std::string& key : keys) EXPECT_TRUE(doc.contains(key)) << kind << " lacks " << key;
}

std::string store_of(const scratch_case& c) { return c.path("records/experience").string(); }

TEST(experience, every_gated_record_adds_one_entry_named_by_its_id) {
  scratch_case c;
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const std::vector<experience_entry> entries = read_experience(store_of(c));
  ASSERT_EQ(entries.size(), 5u);
  std::map<std::string, const experience_entry*> by_variant;
  for (const experience_entry& e : entries) {
    by_variant[e.m_variant] = &e;
    EXPECT_TRUE(fs::exists(fs::path(store_of(c)) / (e.m_id + ".json"))) << e.m_id;
    EXPECT_EQ(e.m_id, entry_id(e));
    EXPECT_EQ(e.m_kernel, "softmax");
    EXPECT_EQ(e.m_kernel_class, "softmax");
    EXPECT_EQ(e.m_dtype, "f32");
    EXPECT_EQ(e.m_backend, "host");
    EXPECT_EQ(e.m_source.m_record, "softmax/" + e.m_variant + ".json");
  }
  EXPECT_EQ(by_variant["v0"]->m_outcome, "root");
  EXPECT_EQ(by_variant["v1"]->m_outcome, "success");  // 1.80x over v0
  EXPECT_EQ(by_variant["v2"]->m_outcome, "failure");  // faster, but incorrect
  EXPECT_EQ(by_variant["v3"]->m_outcome, "failure");  // 1.01x
  EXPECT_EQ(by_variant["v4"]->m_outcome, "success");
  EXPECT_EQ(by_variant["v4"]->m_methods, std::vector<std::string>{"warp_shuffle"});
  EXPECT_EQ(by_variant["v4"]->m_decision, "ACCEPT");
  EXPECT_EQ(by_variant["v2"]->m_decision, "REJECT");
  EXPECT_EQ(by_variant["v2"]->m_bottleneck_before, "not profiled");

  // Adding the same records again adds nothing.
  const run_result again = run_kopt({"experience", "add", "--manifest", c.manifest()});
  EXPECT_EQ(again.m_code, 0) << again.m_err;
  EXPECT_NE(again.m_out.find("0 added, 5 already there"), std::string::npos) << again.m_out;
  const run_result added = run_kopt({"experience", "add", "--manifest", c.manifest(), "--json"});
  expect_schema(parse(added.m_out), "kernelopt.experience_add", {"store", "added", "present", "entries"});
}

TEST(experience, merge_combines_stores_without_duplicates) {
  scratch_case c;
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  // A second repository's store: the same five entries plus one of its own.
  const fs::path other = c.path("other");
  fs::create_directories(other);
  for (const auto& f : fs::directory_iterator(store_of(c))) fs::copy_file(f.path(), other / f.path().filename());
  experience_entry extra = read_experience(store_of(c)).back();
  extra.m_kernel = "gemm";
  extra.m_source.m_repository = "elsewhere";
  extra.m_id = entry_id(extra);
  ASSERT_TRUE(add_experience(other, extra));
  ASSERT_FALSE(add_experience(other, extra));

  const fs::path merged = c.path("merged");
  const run_result r = run_kopt({"experience", "merge", "--store", merged.string(), store_of(c), other.string()});
  EXPECT_EQ(r.m_code, 0) << r.m_err;
  EXPECT_NE(r.m_out.find("6 added, 5 already there"), std::string::npos) << r.m_out;
  EXPECT_EQ(read_experience(merged).size(), 6u);

  const run_result list = run_kopt({"experience", "list", "--store", merged.string(), "--kernel", "gemm"});
  EXPECT_NE(list.m_out.find("1 of 6 entries"), std::string::npos) << list.m_out;
  const run_result search =
      run_kopt({"experience", "search", "--store", merged.string(), "--outcome", "failure", "--json"});
  const json found = parse(search.m_out);
  expect_schema(found, "kernelopt.experience_list", {"action", "store", "entries"});
  EXPECT_EQ(found["entries"].size(), 2u);  // v2, v3
  const run_result stats = run_kopt({"experience", "stats", "--store", merged.string(), "--json"});
  expect_schema(parse(stats.m_out), "kernelopt.experience_stats", {"store", "entries", "methods"});

  // A file whose name is not its id is refused, naming it.
  fs::copy_file(merged / (extra.m_id + ".json"), merged / "renamed.json");
  EXPECT_EQ(run_kopt({"experience", "list", "--store", merged.string()}).m_code, 2);
  EXPECT_EQ(run_kopt({"experience", "frobnicate", "--store", merged.string()}).m_code, 2);
  fs::remove(merged / "renamed.json");

  // A missing key is an input error naming the file and the JSON path.
  json broken = to_json(extra);
  broken.erase("outcome");
  write_text(merged / (extra.m_id + ".json"), broken.dump(2));
  const run_result bad = run_kopt({"experience", "list", "--store", merged.string()});
  EXPECT_EQ(bad.m_code, 2);
  EXPECT_NE(bad.m_err.find(extra.m_id + ".json: /outcome: missing"), std::string::npos) << bad.m_err;
}

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
  const json doc = parse(r.m_out);
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
  EXPECT_EQ(parse(empty.m_out)["next_variant"], "v0");
  record_until(c, "v1");
  const run_result going = run_kopt({"status", "--manifest", c.manifest()});
  EXPECT_EQ(going.m_code, 0) << going.m_out << going.m_err;
  EXPECT_NE(going.m_out.find("status softmax: CONTINUE"), std::string::npos) << going.m_out;
  EXPECT_NE(going.m_out.find("next: run optimize-softmax (next: v2)"), std::string::npos) << going.m_out;
  record_until(c, "v3");  // v2 and v3 rejected
  const run_result stuck = run_kopt({"status", "--manifest", c.manifest(), "--json"});
  EXPECT_EQ(stuck.m_code, 1) << stuck.m_out << stuck.m_err;
  const json doc = parse(stuck.m_out);
  expect_schema(doc, "kernelopt.status",
                {"kernel", "decision", "stop_reason", "summary", "best", "newest", "recorded", "declared",
                 "bottleneck", "conditions", "next_variant", "next_step", "recommendations"});
  EXPECT_EQ(doc["decision"], "stop");
  EXPECT_EQ(doc["stop_reason"], "stagnation");
  EXPECT_EQ(doc["best"], "v1");
  EXPECT_EQ(doc["summary"], "stagnation: 2 rejections in a row (v2, v3): re-profile, change direction");
  EXPECT_EQ(doc["recommendations"]["kind"], "kernelopt.recommend");
  // --stagnation 3 lets it go on.
  EXPECT_EQ(run_kopt({"status", "--manifest", c.manifest(), "--stagnation", "3"}).m_code, 0);
  EXPECT_EQ(run_kopt({"status", "--manifest", c.manifest(), "--kernel", "gemm"}).m_code, 2);
}

TEST(status, stops_when_the_target_is_met) {
  scratch_case c;
  record_until(c, "v4");
  const run_result r = run_kopt({"status", "--manifest", c.manifest(), "--json"});
  EXPECT_EQ(r.m_code, 1);
  const json doc = parse(r.m_out);
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
  records[1]->m_profile = {{"bottleneck", "memory-bound"},
                           {"roofline", {{{"shape", "rows=4096,cols=4096"}, {"gap", 0.10}},
                                         {{"shape", "rows=8192,cols=8192"}, {"gap", 0.14}}}}};
  const stop_status near = evaluate_stop(decl, record_set(records, statuses));
  EXPECT_TRUE(near.m_stop);
  EXPECT_EQ(near.m_reason.value_or(""), "near_peak");
  EXPECT_EQ(near.m_bottleneck, "memory-bound");
  records[1]->m_profile["roofline"][1]["gap"] = 0.2;
  const stop_status far = evaluate_stop(decl, record_set(records, statuses));
  EXPECT_FALSE(far.m_stop);
  EXPECT_NE(far.m_next_step.find("run optimize-softmax (next: v2)"), std::string::npos) << far.m_next_step;
}

TEST(json_output, gate_and_compare) {
  scratch_case c;
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const run_result gate = run_kopt({"gate", "--manifest", c.manifest(), "--variant", "v3", "--json"});
  EXPECT_EQ(gate.m_code, 1);
  const json doc = parse(gate.m_out);
  expect_schema(doc, "kernelopt.gate", {"kernel", "variant", "decision", "recorded_decision", "notes", "gate"});
  EXPECT_EQ(doc["decision"], "REJECT");
  EXPECT_TRUE(doc["gate"].contains("checks"));
  const run_result compare =
      run_kopt({"compare", c.record("v0").string(), c.record("v1").string(), "--json"});
  EXPECT_EQ(compare.m_code, 0) << compare.m_err;
  expect_schema(parse(compare.m_out), "kernelopt.compare", {"rows"});
  EXPECT_EQ(run_kopt({"compare", c.record("v0").string(), c.record("v1").string(), "--json", "--format", "md"}).m_code,
            2);
}

}  // namespace
}  // namespace kopt::test
