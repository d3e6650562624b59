// kopt slurm: a suite's shards as a Slurm job array plus a merge job after
// it; --resubmit: only the shards without a finished folder
// (kopt/scale/slurm/slurm.hpp, docs/scale-out.md).
#include <unistd.h>

#include <cstdlib>
#include <ostream>
#include <sstream>

#include "core/format.hpp"
#include "core/json_io.hpp"
#include "core/process.hpp"
#include "core/utc.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/scale/shard/shard_plan.hpp"
#include "kopt/scale/slurm/slurm.hpp"
#include "kopt/scale/shard/suite.hpp"

namespace kopt::cli {
namespace {

// `name` found in PATH, or "".
std::string in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

std::string this_kopt() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : self.string();
}

// The job id sbatch --parsable printed ("123" or "123;cluster").
std::string submit(const std::string& sbatch, const std::vector<std::string>& args, std::ostream& err) {
  std::vector<std::string> argv = {sbatch, "--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  process_options options;
  options.m_limit_s = k_limit_tool_s;
  options.m_limit_source = "kopt's limit for tools";
  options.m_capture = true;
  const process_result result = run_process(argv, options);
  std::string id = result.m_out.substr(0, result.m_out.find_first_of(";\n"));
  if (!result.exited(0) || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    err << "kopt slurm: " << describe_command(argv) << " ended with " << result.describe() << ":\n"
        << result.m_out << result.m_err;
    return {};
  }
  return id;
}

}  // namespace

int cmd_slurm(const arguments& args, std::ostream& out, std::ostream& err) {
  scale::slurm_request r;
  r.m_shards = int_option("--shards", args.value("--shards"), 1, scale::k_max_shards);
  r.m_out = std::filesystem::absolute(args.value("--out")).lexically_normal();
  r.m_merge_out = std::filesystem::absolute(args.optional_value("--merge-out").value_or((r.m_out / "merged").string()))
                      .lexically_normal();
  std::vector<std::filesystem::path> manifests;
  for (const std::string& m : args.values("--manifest")) {
    r.m_manifests.push_back(std::filesystem::absolute(m).lexically_normal().string());
    manifests.emplace_back(r.m_manifests.back());
  }
  if (const auto dir = args.optional_value("--build-dir")) {
    r.m_build_dir = std::filesystem::absolute(*dir).lexically_normal().string();
    const auto found = scale::find_manifests(*r.m_build_dir);
    manifests.insert(manifests.end(), found.begin(), found.end());
  }
  if (manifests.empty()) throw usage_error("give --manifest FILE (repeatable) or --build-dir DIR");
  const scale::suite suite = scale::load_suite(manifests);
  r.m_kopt = args.optional_value("--kopt").value_or(this_kopt());
  if (r.m_kopt.empty()) throw usage_error("cannot tell where this kopt is: give --kopt PATH");
  if (const auto time = args.optional_value("--time")) r.m_time = *time;
  try {
    (void)scale::parse_slurm_time(r.m_time);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  if (const auto gpus = args.optional_value("--gpus-per-task")) r.m_gpus_per_task = int_option("--gpus-per-task", *gpus, 0, 64);
  if (const auto cpus = args.optional_value("--cpus-per-task")) r.m_cpus_per_task = int_option("--cpus-per-task", *cpus, 1, 1024);
  r.m_partition = args.optional_value("--partition");
  r.m_sbatch_args = args.values("--sbatch-arg");
  r.m_prolog = args.values("--prolog");
  r.m_quick = args.has("--quick");

  const std::vector<int> todo = scale::unfinished_shards(r.m_out, r.m_shards, suite.m_sha256);
  if (!args.has("--resubmit") && static_cast<int>(todo.size()) != r.m_shards) {
    throw usage_error(r.m_out.string() + " already holds finished shards of this suite: --resubmit runs the others");
  }
  out << suite.m_units.size() << " units in " << r.m_shards << " shards; "
      << (todo.empty() ? std::string("every shard has finished") : "to run: " + scale::array_list(todo)) << "\n";
  if (todo.empty()) {
    out << "nothing to submit; merge with: kopt merge " << r.m_out.string() << " --out " << r.m_merge_out.string() << "\n";
    return k_exit_ok;
  }
  const std::filesystem::path dir = r.m_out / "slurm";
  std::filesystem::create_directories(dir / "logs");
  write_file_atomic(dir / "shard.sbatch", scale::shard_script(r));
  write_file_atomic(dir / "merge.sbatch", scale::merge_script(r));
  const std::vector<std::string> shard_args = {"--array=" + scale::array_list(todo), (dir / "shard.sbatch").string()};
  out << "scripts: " << (dir / "shard.sbatch").string() << ", " << (dir / "merge.sbatch").string() << "\n";
  if (args.has("--dry-run")) {
    out << "would run: sbatch --parsable " << join(shard_args, " ") << "\n"
        << "would run: sbatch --parsable --dependency=afterany:<array job> " << (dir / "merge.sbatch").string() << "\n";
    return k_exit_ok;
  }
  const std::string sbatch = in_path("sbatch");
  if (sbatch.empty()) throw usage_error("sbatch is not in PATH (run on a Slurm login node, or use --dry-run)");
  const std::string array_job = submit(sbatch, shard_args, err);
  if (array_job.empty()) return k_exit_fail;
  const std::string merge_job =
      submit(sbatch, {"--dependency=afterany:" + array_job, (dir / "merge.sbatch").string()}, err);
  if (merge_job.empty()) return k_exit_fail;
  std::string log = std::filesystem::exists(dir / "submissions.log") ? read_text_file(dir / "submissions.log") : "";
  log += utc_now_iso() + " array " + scale::array_list(todo) + " job " + array_job + " merge job " + merge_job + "\n";
  write_file_atomic(dir / "submissions.log", log);
  out << "submitted shards " << scale::array_list(todo) << " as job " << array_job << "; merge job " << merge_job
      << " (afterany:" << array_job << ") -> " << r.m_merge_out.string() << "\n";
  return k_exit_ok;
}

}  // namespace kopt::cli
