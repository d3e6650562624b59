// The result of one point of a family (`kernelopt.sweep_point`), one file
// per point: <sweep_dir>/<point>.json, written by `kopt sweep` after each
// stage, read by the next run (resume) and by `kopt select`. A sweep split
// over hosts (kopt shard run) writes the same files in each shard's folder,
// and kopt merge selects from them per device model (docs/scale-out.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt {

inline constexpr int k_sweep_point_schema_version = 1;
inline constexpr const char* k_sweep_point_kind = "kernelopt.sweep_point";

// One stage of a point: build, correctness or bench.
struct point_stage {
  // build: ok | failed | skipped; correctness: pass | fail | skipped; bench: ok |
  // failed | skipped; any stage: not_run (an earlier stage failed, or the
  // budget ran out first).
  std::string m_status = "not_run";
  std::string m_detail;  // why it failed or was skipped ("" when it passed)
  double m_elapsed_s = 0;
};

struct point_time {
  std::string m_shape;
  double m_median_ns = 0;        // > 0
  std::optional<double> m_noise;  // relative standard error of the median
};

struct point_result {
  std::string m_kernel;
  std::string m_variant;
  std::string m_point;
  std::vector<std::string> m_params;  // NAME=value
  std::string m_source_hash;  // sha256 over the family's sources and the point's params
  point_stage m_build;
  point_stage m_correctness;
  point_stage m_bench;
  std::vector<point_time> m_times;  // every declared shape when the bench is ok
  std::string m_utc;

  // Every stage ran to a verdict (a failure is a verdict, a skip is not):
  // nothing to redo while the sources are the same.
  [[nodiscard]] bool finished() const;
  // Build skipped (this build's architectures), correctness or bench
  // skipped (no GPU): measured by a later run elsewhere.
  [[nodiscard]] bool skipped() const;
  // Built, correct on every shape and timed on every shape.
  [[nodiscard]] bool usable() const;
  // The first stage that did not pass and why, "" when usable.
  [[nodiscard]] std::string failure() const;
  [[nodiscard]] const point_time* time_of(const std::string& shape) const;
};

[[nodiscard]] json to_json(const point_result& r);
// Throws format_error naming the file and the field.
[[nodiscard]] point_result point_result_from_json(const json_reader& root);
[[nodiscard]] point_result read_point_result(const std::filesystem::path& path);

// <sweep_dir>/<point>.json and the harness outputs beside it.
[[nodiscard]] std::filesystem::path point_result_path(const std::filesystem::path& dir, const std::string& point);

// sha256 over the family's source hash (records/source_hash.hpp) and the
// point's params: what makes a stored result current. Throws
// std::runtime_error naming a source that cannot be read.
[[nodiscard]] std::string point_source_hash(const variant_decl& family, const point_decl& point);

[[nodiscard]] std::vector<format_table> sweep_point_tables();

}  // namespace kopt
