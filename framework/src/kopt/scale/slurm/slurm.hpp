// `kopt slurm` (docs/scale-out.md, "Slurm"): a suite's shards as a Slurm job
// array (sbatch --array, --requeue, --gpus-per-task, --time) and a merge job
// that runs after it whatever its outcome (--dependency=afterany), and, on
// --resubmit, an array of only the shards that have no finished folder.
// The scripts are written to <out>/slurm/ and can be read and submitted by
// hand; KernelOpt runs no scheduler of its own.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kopt::scale {

struct slurm_request {
  int m_shards = 1;
  std::filesystem::path m_out;        // the shards' folder (shared storage)
  std::filesystem::path m_merge_out;  // the merge's folder
  std::vector<std::string> m_manifests;  // absolute
  std::optional<std::string> m_build_dir;
  std::string m_kopt;                 // the kopt the jobs run (absolute)
  std::string m_time = "01:00:00";    // per shard task (sbatch --time)
  int m_gpus_per_task = 0;
  int m_cpus_per_task = 1;
  std::optional<std::string> m_partition;
  std::vector<std::string> m_sbatch_args;  // more #SBATCH lines, as given
  std::vector<std::string> m_prolog;       // shell lines run before the shard (module load, a per-node build)
  bool m_quick = false;
};

// "HH:MM:SS", "MM:SS", "D-HH:MM:SS" or minutes, in seconds. Throws
// std::invalid_argument naming the text.
[[nodiscard]] long parse_slurm_time(const std::string& text);

// The time a shard gives itself (kopt shard run --budget): the task's time
// less a margin for starting up and writing (60 s, at most a tenth).
[[nodiscard]] long shard_budget_s(long task_s);

// The job scripts.
[[nodiscard]] std::string shard_script(const slurm_request& request);
[[nodiscard]] std::string merge_script(const slurm_request& request);

// "0-15", "3,7": sbatch --array's list of these indices (sorted).
[[nodiscard]] std::string array_list(const std::vector<int>& indices);

// The shards under `out` without a finished (complete) folder of this
// suite and count. Throws std::runtime_error when `out` holds shards of
// another suite or count.
[[nodiscard]] std::vector<int> unfinished_shards(const std::filesystem::path& out, int shards,
                                                 const std::string& suite_sha256);

}  // namespace kopt::scale
