#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/json_io.hpp"
#include "kopt/scale/shard/shard_document.hpp"
#include "kopt/scale/slurm/slurm.hpp"

namespace kopt::scale {
namespace {

TEST(SlurmTime, Forms) {
  EXPECT_EQ(parse_slurm_time("00:30:00"), 1800);
  EXPECT_EQ(parse_slurm_time("1-02:00:00"), 93600);
  EXPECT_EQ(parse_slurm_time("90"), 5400);
  EXPECT_EQ(parse_slurm_time("05:30"), 330);
  for (const char* bad : {"", "1:2:3:4", "ab", "00:00:00", "1-5", "-1"}) {
    EXPECT_THROW((void)parse_slurm_time(bad), std::invalid_argument) << bad;
  }
  EXPECT_EQ(shard_budget_s(1800), 1740);
  EXPECT_EQ(shard_budget_s(300), 270);
}

TEST(SlurmArray, Ranges) {
  EXPECT_EQ(array_list({0, 1, 2, 3}), "0-3");
  EXPECT_EQ(array_list({3, 7}), "3,7");
  EXPECT_EQ(array_list({0, 2, 3, 4, 9}), "0,2-4,9");
}

TEST(SlurmScripts, ArrayTaskAndMergeJob) {
  slurm_request r;
  r.m_shards = 16;
  r.m_out = "/shared/run";
  r.m_merge_out = "/shared/run/merged";
  r.m_manifests = {"/b/kernelopt/gemm/manifest.json"};
  r.m_kopt = "/b/kopt";
  r.m_time = "00:30:00";
  r.m_gpus_per_task = 1;
  r.m_partition = "gpu";
  r.m_sbatch_args = {"--account=abc"};
  r.m_prolog = {"module load cuda"};
  const std::string shard = shard_script(r);
  for (const char* line : {"#SBATCH --gpus-per-task=1\n", "#SBATCH --time=00:30:00\n", "#SBATCH --requeue\n",
                           "#SBATCH --partition=gpu\n", "#SBATCH --account=abc\n", "module load cuda\n",
                           "#SBATCH --output=/shared/run/slurm/logs/shard-%a.%A.out\n",
                           "exec '/b/kopt' shard run --shard auto/16 --out '/shared/run' --manifest "
                           "'/b/kernelopt/gemm/manifest.json' --budget 1740\n"}) {
    EXPECT_NE(shard.find(line), std::string::npos) << line << "\nin\n" << shard;
  }
  const std::string merge = merge_script(r);
  // The merge job is given the manifests: it writes the records, selections and reports too.
  EXPECT_NE(merge.find("exec '/b/kopt' merge '/shared/run' --out '/shared/run/merged' --manifest "
                       "'/b/kernelopt/gemm/manifest.json'\n"),
            std::string::npos)
      << merge;
  r.m_gpus_per_task = 0;
  r.m_out = "/it's";
  EXPECT_EQ(shard_script(r).find("--gpus-per-task"), std::string::npos);
  EXPECT_NE(shard_script(r).find("--out '/it'\\''s'"), std::string::npos);
}

TEST(SlurmResubmit, OnlyShardsWithoutAFinishedFolder) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("kopt_resubmit_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const auto write = [&](const std::string& name, int index, int count, const std::string& status,
                         const std::string& suite) {
    shard_document d;
    d.m_index = index;
    d.m_count = count;
    d.m_assignment = "hrw-sha256";
    d.m_index_source = "--shard";
    d.m_status = status;
    d.m_run_id = name;
    d.m_suite_sha256 = suite;
    write_json_atomic(dir / name / "shard.json", to_json(d));
  };
  EXPECT_EQ(unfinished_shards(dir, 3, "s"), (std::vector<int>{0, 1, 2}));  // no folder yet
  write("shard-0000-of-0003.a", 0, 3, "complete", "s");
  write("shard-0002-of-0003.b", 2, 3, "partial", "s");
  std::filesystem::create_directories(dir / "shard-0001-of-0003.c.partial");  // killed
  EXPECT_EQ(unfinished_shards(dir, 3, "s"), (std::vector<int>{1, 2}));
  write("shard-0001-of-0003.d", 1, 3, "complete", "other");
  EXPECT_THROW((void)unfinished_shards(dir, 3, "s"), std::runtime_error);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kopt::scale
