// The experience store (docs/agents.md): one entry per gated record, named
// by its id; kopt experience add / merge / list / search / stats and their
// --json documents; malformed entries are input errors naming the file.
#include <gtest/gtest.h>

#include <map>

#include "core/json_io.hpp"
#include "kopt/experience/entry.hpp"
#include "kopt/experience/store.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

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
  expect_schema(parse_stdout(added.m_out), "kernelopt.experience_add", {"store", "added", "present", "entries"});
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
  const json found = parse_stdout(search.m_out);
  expect_schema(found, "kernelopt.experience_list", {"action", "store", "entries"});
  EXPECT_EQ(found["entries"].size(), 2u);  // v2, v3
  const run_result stats = run_kopt({"experience", "stats", "--store", merged.string(), "--json"});
  expect_schema(parse_stdout(stats.m_out), "kernelopt.experience_stats", {"store", "entries", "methods"});

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

}  // namespace
}  // namespace kopt::test
