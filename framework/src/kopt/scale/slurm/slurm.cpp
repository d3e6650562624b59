#include "kopt/scale/slurm/slurm.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include "kopt/scale/merge/merge_plan.hpp"

namespace kopt::scale {
namespace {

// 'text' for a POSIX shell.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

long number(const std::string& text, const std::string& whole) {
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument("--time '" + whole + "': expected HH:MM:SS, MM:SS, D-HH:MM:SS or minutes");
  }
  return std::stol(text);
}

std::string format_hms(long s) {
  char text[32];
  std::snprintf(text, sizeof text, "%02ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  return text;
}

}  // namespace

long parse_slurm_time(const std::string& text) {
  long days = 0;
  std::string rest = text;
  if (const std::size_t dash = text.find('-'); dash != std::string::npos) {
    days = number(text.substr(0, dash), text);
    rest = text.substr(dash + 1);
  }
  std::vector<long> parts;
  std::stringstream in(rest);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(number(part, text));
  long seconds = 0;
  if (parts.size() == 1 && days == 0) {
    seconds = parts[0] * 60;
  } else if (parts.size() == 2 && days == 0) {
    seconds = parts[0] * 60 + parts[1];
  } else if (parts.size() == 3) {
    seconds = parts[0] * 3600 + parts[1] * 60 + parts[2];
  } else {
    (void)number("", text);
  }
  seconds += days * 86400;
  if (seconds <= 0) throw std::invalid_argument("--time '" + text + "': must be more than 0");
  return seconds;
}

long shard_budget_s(long task_s) { return task_s - std::min(60L, task_s / 10); }

std::string shard_script(const slurm_request& r) {
  std::ostringstream s;
  const std::filesystem::path logs = r.m_out / "slurm" / "logs";
  s << "#!/bin/bash\n"
    << "# Written by kopt slurm (docs/scale-out.md): shard $SLURM_ARRAY_TASK_ID of " << r.m_shards
    << " of a KernelOpt suite.\n"
    << "#SBATCH --job-name=kopt-shard\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --cpus-per-task=" << r.m_cpus_per_task << "\n";
  if (r.m_gpus_per_task > 0) s << "#SBATCH --gpus-per-task=" << r.m_gpus_per_task << "\n";
  s << "#SBATCH --time=" << r.m_time << "\n"
    << "#SBATCH --requeue\n"
    << "#SBATCH --output=" << (logs / "shard-%a.%A.out").string() << "\n";
  if (r.m_partition) s << "#SBATCH --partition=" << *r.m_partition << "\n";
  for (const std::string& arg : r.m_sbatch_args) s << "#SBATCH " << arg << "\n";
  s << "set -e\n";
  for (const std::string& line : r.m_prolog) s << line << "\n";
  s << "exec " << quoted(r.m_kopt) << " shard run --shard auto/" << r.m_shards << " --out " << quoted(r.m_out.string());
  for (const std::string& m : r.m_manifests) s << " --manifest " << quoted(m);
  if (r.m_build_dir) s << " --build-dir " << quoted(*r.m_build_dir);
  if (r.m_quick) s << " --quick";
  s << " --budget " << shard_budget_s(parse_slurm_time(r.m_time)) << "\n";
  return s.str();
}

std::string merge_script(const slurm_request& r) {
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# Written by kopt slurm (docs/scale-out.md): merges the shards in " << r.m_out.string()
    << " once the array has ended (exit 3: shards missing; kopt slurm --resubmit runs them).\n"
    << "#SBATCH --job-name=kopt-merge\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --cpus-per-task=1\n"
    << "#SBATCH --time=00:15:00\n"
    << "#SBATCH --output=" << (r.m_out / "slurm" / "logs" / "merge.%j.out").string() << "\n";
  if (r.m_partition) s << "#SBATCH --partition=" << *r.m_partition << "\n";
  for (const std::string& line : r.m_prolog) s << line << "\n";
  // With the manifests: each model's records, selections and reports too.
  s << "exec " << quoted(r.m_kopt) << " merge " << quoted(r.m_out.string()) << " --out "
    << quoted(r.m_merge_out.string());
  for (const std::string& m : r.m_manifests) s << " --manifest " << quoted(m);
  if (r.m_build_dir) s << " --build-dir " << quoted(*r.m_build_dir);
  s << "\n";
  return s.str();
}

std::string array_list(const std::vector<int>& indices) {
  std::string list;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    if (!list.empty()) list += ",";
    list += std::to_string(indices[i]);
    if (j > i) list += "-" + std::to_string(indices[j]);
    i = j + 1;
  }
  return list;
}

std::vector<int> unfinished_shards(const std::filesystem::path& out, int shards, const std::string& suite_sha256) {
  std::set<int> finished;
  if (std::filesystem::is_directory(out)) {
    for (const shard_input& input : scan_shards({out}).m_shards) {
      const shard_document& d = input.m_doc;
      if (d.m_suite_sha256 != suite_sha256 || d.m_count != shards) {
        throw std::runtime_error(input.m_dir.string() + " is a shard of another run (suite or shard count differs): "
                                 "give another --out");
      }
      if (d.m_status == "complete") finished.insert(d.m_index);
    }
  }
  std::vector<int> missing;
  for (int i = 0; i < shards; ++i) {
    if (finished.count(i) == 0) missing.push_back(i);
  }
  return missing;
}

}  // namespace kopt::scale
