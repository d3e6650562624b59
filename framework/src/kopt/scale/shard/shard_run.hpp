// `kopt shard run`: runs the units of one shard (each unit's correctness
// test, then, when it passed, its benchmark) into a folder of its own and
// writes kernelopt.shard last. The folder is
// <out>/shard-<I>-of-<N>.<run id>: the run id (UTC time, host, pid) makes
// every run's folder its own, so that nothing two shards (or two runs of
// one shard) write can collide. Until the run ends the folder carries the
// suffix ".partial"; a run that is killed leaves it so, and `kopt merge`
// names it and reads nothing from it.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>

#include "kopt/scale/shard/shard_document.hpp"
#include "kopt/scale/shard/shard_plan.hpp"
#include "kopt/scale/shard/suite.hpp"

namespace kopt::scale {

struct shard_run_request {
  shard_spec m_shard;
  std::filesystem::path m_out;  // the shards' common folder
  bool m_quick = false;
  std::optional<std::string> m_ceilings;
  // Seconds the whole shard may take: no test or benchmark runs past it (a
  // unit stopped by it, or not started because under 5 s are left, is
  // listed in not_run, and the shard is "partial": its merge names it
  // missing). nullopt: no budget.
  std::optional<double> m_budget_s;
  std::string m_kernelopt_version;
};

struct shard_run_result {
  std::filesystem::path m_dir;  // the shard's folder (final name)
  shard_document m_document;
};

// "host CPU: <model name from /proc/cpuinfo>", or "host CPU: unknown".
[[nodiscard]] std::string host_cpu_model();
// Where a unit of a kernel with this backend runs, before any result says:
// a host-backend kernel on the host CPU (host_cpu_model, uuid "none"), any
// other on the shard's device. Its results' device replaces it when they
// name one; a unit with none (a point that did not compile) keeps this, so
// that every unit of one kernel falls in one device group at the merge.
[[nodiscard]] std::pair<std::string, std::string> unit_device(const std::string& backend,
                                                              const std::pair<std::string, std::string>& shard_device);
// This machine's host name, or "unknown".
[[nodiscard]] std::string host_name();

[[nodiscard]] shard_run_result run_shard(const suite& s, const shard_run_request& request, std::ostream& out);

}  // namespace kopt::scale
