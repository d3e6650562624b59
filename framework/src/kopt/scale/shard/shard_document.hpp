// kernelopt.shard: what one shard run did, written last into its folder
// (docs/formats.md). Self-describing, so that `kopt merge` needs neither the
// build nor the manifests: the suite it belongs to (every unit's name and
// the suite hash), where it ran (host, device model and UUID, build hash,
// KernelOpt version), and per unit the outcome of its correctness test and
// benchmark with each shape's verdict and median time.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/json_io.hpp"

namespace kopt::scale {

inline constexpr int k_shard_schema_version = 1;
inline constexpr const char* k_shard_kind = "kernelopt.shard";
inline constexpr const char* k_shard_file = "shard.json";

// One shape of one unit.
struct shape_outcome {
  std::string m_shape;
  std::string m_correctness;             // pass | fail | incomplete | not_run
  std::optional<double> m_median_ns;     // the benchmark's, when it timed the shape
  std::optional<std::string> m_bench_error;  // the benchmark row failed: why
};

struct unit_outcome {
  std::string m_unit;  // "<kernel>/<impl>"
  std::string m_kernel;
  std::string m_impl;
  std::string m_device_model;  // the GPU's name, or "host CPU: <model>"; "unknown"
  std::string m_device_uuid;   // the GPU's UUID, or "none" (host)
  std::string m_source_sha256;  // kopt's source hash of the implementation, or "unknown"
  std::string m_correctness;    // pass | fail | incomplete | skipped | error
  std::string m_correctness_detail;  // skipped / error: why
  std::optional<std::string> m_correctness_file;  // relative to the shard folder
  std::string m_bench;  // ok | failed (a row failed) | skipped | error | not_run
  std::string m_bench_detail;
  std::optional<std::string> m_bench_file;
  // A family point (docs/sweeps.md): its family variant, and its
  // kernelopt.sweep_point file relative to the shard folder
  // (<kernel>/sweep/<family>/<point>.json, the harness outputs beside it).
  std::string m_family;  // "" for a variant or baseline
  std::optional<std::string> m_point_file;
  double m_elapsed_s = 0;
  std::vector<shape_outcome> m_shapes;
};

// The launcher's variables found in the shard's environment (SLURM_JOB_ID,
// SLURM_ARRAY_JOB_ID, ..., JOB_COMPLETION_INDEX, CUDA_VISIBLE_DEVICES), in
// the order looked up; none outside a launcher. Written as an object of
// strings, `{}` when none.
struct launcher_info {
  std::vector<std::pair<std::string, std::string>> m_variables;  // name, value
};
[[nodiscard]] json to_json(const launcher_info& launcher);
// An object whose values are strings; throws format_error naming the file
// and the JSON path.
[[nodiscard]] launcher_info launcher_from_json(const json_reader& node);

struct shard_document {
  int m_index = 0;
  int m_count = 1;
  std::string m_assignment;    // "hrw-sha256"
  std::string m_index_source;  // --shard, SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX
  std::string m_status;        // complete | partial (the time budget ran out: m_not_run)
  std::string m_run_id;        // unique per run: "<UTC>-<host>-<pid>"
  std::string m_host;
  std::string m_kernelopt_version;
  std::string m_started_utc;
  std::string m_finished_utc;
  std::string m_suite_sha256;
  bool m_quick = false;
  std::vector<std::string> m_suite_units;  // every unit of the suite, sorted
  std::string m_device_model;  // where the shard ran (the first GPU it sees, else the host CPU)
  std::string m_device_uuid;
  std::string m_build_sha256;  // over the executables and modules the units ran
  launcher_info m_launcher;    // absent in a file: none
  std::vector<unit_outcome> m_units;
  std::vector<std::string> m_not_run;  // units of the shard not started (time budget)
};

[[nodiscard]] json to_json(const shard_document& doc);
// Throws format_error naming the file and the JSON path.
[[nodiscard]] shard_document shard_from_json(const json& doc, const std::string& file);
[[nodiscard]] shard_document read_shard(const std::filesystem::path& path);

}  // namespace kopt::scale
