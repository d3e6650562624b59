// The perf baseline (`kernelopt.perf_baseline`): the accepted best variant
// timed in several independent benchmark processes on one GPU model, so
// that `<k>.perf` knows how far an unchanged tree moves from run to run.
// One file per variant and device model, side by side under
// `<RECORDS>/<k>/perf/<variant>.<device-slug>.json`; written by
// `kopt baseline`, read by `kopt perf` (decide/perf_band.hpp has the band).
// A baseline names the source hash of the record it measured: one made for
// other sources is stale and not used.
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

inline constexpr const char* k_perf_baseline_kind = "kernelopt.perf_baseline";
inline constexpr int k_perf_baseline_schema_version = 1;
// Limits on a read baseline (beyond read_json_file's size and depth).
inline constexpr std::size_t k_max_baseline_list = 100000;  // shapes, runs, GPUs

struct baseline_shape {
  std::string m_shape;
  double m_median_ns = 0;               // median of the runs' medians
  std::vector<double> m_run_medians_ns;  // one per process
  double m_spread = 0;  // sample standard deviation of ln(run median): relative run-to-run spread
  std::optional<double> m_within_noise;  // median of the runs' own noise (within-run)
};

struct perf_baseline {
  std::string m_kernel;
  std::string m_variant;
  std::string m_source_sha256;  // the record's source hash when measured
  std::string m_device;          // the bench's kopt.device: the model
  std::vector<std::string> m_gpus;  // UUIDs of the boards that ran (empty: unknown, e.g. host)
  std::int64_t m_runs = 0;
  bool m_quick = false;
  std::string m_created_utc;
  std::vector<baseline_shape> m_shapes;
  std::vector<double> m_run_geomeans_ns;  // per run, over the shapes every run measured
  double m_geomean_spread = 0;

  [[nodiscard]] const baseline_shape* find(const std::string& shape) const;
};

// "NVIDIA H200" -> "nvidia-h200"; "host (x86_64)" -> "host-x86-64".
[[nodiscard]] std::string device_slug(const std::string& device);
[[nodiscard]] std::filesystem::path baseline_path(const manifest& m, const std::string& variant,
                                                  const std::string& device);

[[nodiscard]] json to_json(const perf_baseline& b);
// Kind and schema_version checked, every field of its type, times > 0,
// spreads >= 0. Throws format_error naming the file and the JSON pointer.
[[nodiscard]] perf_baseline perf_baseline_from_json(const json& doc, const std::string& file);
// nullopt when the file does not exist; throws format_error when it is malformed.
[[nodiscard]] std::optional<perf_baseline> read_perf_baseline(const std::filesystem::path& path);

// Tables (docs/formats.md): the baseline, a shape, the geomean.
[[nodiscard]] std::vector<format_table> perf_baseline_tables();

}  // namespace kopt
