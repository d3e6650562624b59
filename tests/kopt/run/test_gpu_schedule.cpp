// kopt resources and kopt overlap (docs/multi-gpu.md): the spec CTest
// reads, and the check that no two benchmark runs shared a GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include "core/json_io.hpp"
#include "kopt/run/gpu_schedule.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

gpu_interval interval(const std::string& file, const std::string& gpu, std::int64_t start, std::int64_t end) {
  return {file, gpu, "", start, end};
}

TEST(gpu_schedule, resource_spec_is_ctest_version_1) {
  const json spec = resource_spec({{"0", "NVIDIA H200", "GPU-a"}, {"1", "NVIDIA H200", "GPU-b"}}, 4);
  EXPECT_EQ(spec["version"]["major"], 1);
  EXPECT_EQ(spec["version"]["minor"], 0);
  ASSERT_EQ(spec["local"].size(), 1u);
  const json& gpus = spec["local"][0]["gpus"];
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[1]["id"], "1");  // ids are strings in CTest's format
  EXPECT_EQ(gpus[1]["slots"], 4);
  EXPECT_EQ(gpus[0].size(), 2u);  // nothing CTest does not know
}

TEST(gpu_schedule, overlaps_only_on_one_gpu_and_only_when_time_is_shared) {
  const std::vector<gpu_interval> runs = {
      interval("a", "GPU-0", 0, 100), interval("b", "GPU-0", 100, 200),  // touching: no overlap
      interval("c", "GPU-1", 50, 150),                                    // other GPU
      interval("d", "GPU-0", 150, 160),                                   // inside b
      interval("e", "GPU-1", 150, 300)};
  const std::vector<interval_overlap> found = find_overlaps(runs);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].m_first->m_file, "b");
  EXPECT_EQ(found[0].m_second->m_file, "d");
  EXPECT_EQ(found[0].m_overlap_ns, 10);
  EXPECT_TRUE(find_overlaps({interval("a", "GPU-0", 0, 100), interval("b", "GPU-1", 0, 100)}).empty());
}

TEST(gpu_schedule, an_interval_spanning_several_later_ones_overlaps_each) {
  const std::vector<gpu_interval> runs = {interval("long", "G", 0, 1000), interval("x", "G", 10, 20),
                                          interval("y", "G", 30, 40)};
  EXPECT_EQ(find_overlaps(runs).size(), 2u);
}

class overlap_cli : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("kopt_overlap_" + std::to_string(::getpid()));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  std::string bench(const std::string& name, const std::string& uuid, std::int64_t start, std::int64_t end) {
    const json doc = {{"benchmarks", json::array()},
                      {"kopt",
                       {{"schema_version", 1},
                        {"kind", "kernelopt.bench"},
                        {"kernel", "softmax"},
                        {"gpu", {{"index", 0}, {"uuid", uuid}, {"ctest_allocation", "id:0,slots:4"}}},
                        {"started_unix_ns", start},
                        {"finished_unix_ns", end}}}};
    const fs::path path = m_dir / name;
    write_text(path, doc.dump());
    return path.string();
  }

  fs::path m_dir;
};

TEST_F(overlap_cli, exit_code_says_whether_runs_overlapped) {
  const std::string a = bench("a.json", "GPU-0", 1'000'000'000, 2'000'000'000);
  const std::string b = bench("b.json", "GPU-1", 1'500'000'000, 2'500'000'000);
  const std::string c = bench("c.json", "GPU-0", 2'000'000'000, 3'000'000'000);
  const run_result clean = run_kopt({"overlap", a, b, c});
  EXPECT_EQ(clean.m_code, 0) << clean.m_out << clean.m_err;
  EXPECT_NE(clean.m_out.find("GPU GPU-0: 2 benchmark run(s)"), std::string::npos) << clean.m_out;
  EXPECT_NE(clean.m_out.find("no two benchmark runs overlapped"), std::string::npos);

  const std::string d = bench("d.json", "GPU-1", 2'000'000'000, 2'100'000'000);
  const run_result clash = run_kopt({"overlap", a, b, c, d});
  EXPECT_EQ(clash.m_code, 1);
  EXPECT_NE(clash.m_out.find("OVERLAP on GPU GPU-1"), std::string::npos) << clash.m_out;

  // --json: the same decision, the same exit code, one versioned document.
  const run_result as_json = run_kopt({"overlap", a, b, c, d, "--json"});
  EXPECT_EQ(as_json.m_code, 1);
  const json doc = parse_stdout(as_json.m_out);
  expect_schema(doc, "kernelopt.overlap", {"runs", "overlaps"});
  EXPECT_EQ(doc["runs"].size(), 4u);
  ASSERT_EQ(doc["overlaps"].size(), 1u);
  EXPECT_EQ(doc["overlaps"][0]["gpu"], "GPU-1");
  EXPECT_EQ(doc["overlaps"][0]["first"], b);
  EXPECT_EQ(doc["overlaps"][0]["second"], d);
  EXPECT_DOUBLE_EQ(doc["overlaps"][0]["overlap_s"].get<double>(), 0.1);
  EXPECT_EQ(parse_stdout(run_kopt({"overlap", a, b, c, "--json"}).m_out)["overlaps"].size(), 0u);
}

TEST_F(overlap_cli, a_missing_field_names_the_file_and_the_field) {
  const fs::path old = m_dir / "old.json";
  write_text(old, R"({"benchmarks": [], "kopt": {"schema_version": 1, "kind": "kernelopt.bench", "kernel": "k",
                       "gpu": {"index": 0, "uuid": "GPU-0"}, "finished_unix_ns": 5}})");
  const run_result r = run_kopt({"overlap", old.string()});
  EXPECT_EQ(r.m_code, 2);
  EXPECT_NE(r.m_err.find(old.string()), std::string::npos) << r.m_err;
  EXPECT_NE(r.m_err.find("/kopt/started_unix_ns"), std::string::npos) << r.m_err;
  EXPECT_EQ(run_kopt({"overlap"}).m_code, 2);
}

TEST_F(overlap_cli, resources_writes_a_spec_ctest_can_read) {
  const fs::path spec = m_dir / "gpus.json";
  const run_result r = run_kopt({"resources", "--out", spec.string(), "--slots", "3"});
  ASSERT_EQ(r.m_code, 0) << r.m_out << r.m_err;
  const json doc = read_json_file(spec);
  ASSERT_FALSE(doc["local"][0]["gpus"].empty());  // a placeholder GPU when none is visible
  for (const json& gpu : doc["local"][0]["gpus"]) EXPECT_EQ(gpu["slots"], 3);
  EXPECT_EQ(run_kopt({"resources", "--out", spec.string(), "--slots", "0"}).m_code, 2);
  EXPECT_EQ(run_kopt({"resources", "--out", spec.string(), "--slots", "x"}).m_code, 2);
}

}  // namespace
}  // namespace kopt::test
