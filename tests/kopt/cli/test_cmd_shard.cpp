// kopt shard and kopt merge at the command line: what they list, and every
// usage or input error naming what is wrong (exit 2).
#include <algorithm>

#include "kopt/inputs/manifest.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

TEST(cmd_shard, lists_every_unit_once_over_the_shards) {
  scratch_case c;
  std::string all;
  for (int i = 0; i < 3; ++i) {
    const run_result r = run_kopt({"shard", "list", "--manifest", c.manifest(), "--shard", std::to_string(i) + "/3"});
    ASSERT_EQ(r.m_code, 0) << r.m_err;
    all += r.m_out;
  }
  const manifest m = read_manifest(c.manifest());
  std::size_t units = m.m_variants.size() + m.m_baselines.size();
  EXPECT_EQ(static_cast<std::size_t>(std::count(all.begin(), all.end(), '\n')), units) << all;
  for (const variant_decl& v : m.m_variants) EXPECT_NE(all.find("softmax/" + v.m_name + "\n"), std::string::npos) << v.m_name;
  const run_result json_list = run_kopt({"shard", "list", "--manifest", c.manifest(), "--shard", "0/1", "--format", "json"});
  ASSERT_EQ(json_list.m_code, 0) << json_list.m_err;
  const json doc = json::parse(json_list.m_out);
  EXPECT_EQ(doc["kind"], "kernelopt.shard_list");
  EXPECT_EQ(doc["units"].size(), units);
}

TEST(cmd_shard, usage_errors_name_the_argument) {
  scratch_case c;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"shard", "list", "--manifest", c.manifest(), "--shard", "3/3"}, "not below the count"},
      {{"shard", "list", "--manifest", c.manifest(), "--shard", "x"}, "expected I/N"},
      {{"shard", "list", "--shard", "0/2"}, "--manifest FILE"},
      {{"shard", "frob", "--manifest", c.manifest(), "--shard", "0/2"}, "unknown action 'frob'"},
      {{"shard", "run", "--manifest", c.manifest(), "--shard", "0/2"}, "needs --out DIR"},
      {{"shard", "list", "--manifest", c.manifest(), "--shard", "0/2", "--format", "yaml"}, "--format 'yaml'"},
      {{"merge", "--out", c.path("m").string()}, "give the shard folders"},
      {{"merge", c.path("nothing-here").string(), "--out", c.path("m").string()}, "not a folder"},
      {{"slurm", "--manifest", c.manifest(), "--shards", "2", "--out", c.path("s").string(), "--time", "soon"},
       "--time 'soon'"},
  };
  for (const auto& [args, expected] : cases) {
    const run_result r = run_kopt(args);
    EXPECT_EQ(r.m_code, 2) << args[0] << " " << args[1];
    EXPECT_NE(r.m_err.find(expected), std::string::npos) << "expected '" << expected << "' in:\n" << r.m_err;
  }
}

TEST(cmd_merge, malformed_shard_file_names_file_and_field) {
  scratch_case c;
  fs::create_directories(c.path("shards/shard-0000-of-0001.x"));
  write_text(c.path("shards/shard-0000-of-0001.x/shard.json"),
             R"({"schema_version": 1, "kind": "kernelopt.shard", "shard": {"index": 2, "count": 1}})");
  const run_result r = run_kopt({"merge", c.path("shards").string(), "--out", c.path("m").string()});
  EXPECT_EQ(r.m_code, 2);
  EXPECT_NE(r.m_err.find("shard-0000-of-0001.x/shard.json"), std::string::npos) << r.m_err;
  EXPECT_NE(r.m_err.find("/shard/index"), std::string::npos) << r.m_err;
  EXPECT_FALSE(fs::exists(c.path("m")));
}

TEST(cmd_merge, empty_folder_is_an_error_and_slurm_dry_run_writes_the_scripts) {
  scratch_case c;
  fs::create_directories(c.path("empty"));
  const run_result r = run_kopt({"merge", c.path("empty").string(), "--out", c.path("m").string()});
  EXPECT_EQ(r.m_code, 2);
  EXPECT_NE(r.m_err.find("no finished shard folder"), std::string::npos) << r.m_err;
  const run_result dry = run_kopt({"slurm", "--manifest", c.manifest(), "--shards", "3", "--out", c.path("s").string(),
                                   "--kopt", "/opt/kopt", "--gpus-per-task", "1", "--dry-run"});
  ASSERT_EQ(dry.m_code, 0) << dry.m_err;
  EXPECT_NE(dry.m_out.find("would run: sbatch --parsable --array=0-2 "), std::string::npos) << dry.m_out;
  EXPECT_NE(read_text(c.path("s/slurm/shard.sbatch")).find("#SBATCH --gpus-per-task=1"), std::string::npos);
  EXPECT_NE(read_text(c.path("s/slurm/merge.sbatch")).find("'/opt/kopt' merge"), std::string::npos);
}

}  // namespace
}  // namespace kopt::test
