// `kopt select`: from the result of every point of a family, the champion
// of each declared shape (the fastest usable point), its frontier (the
// usable points within a margin of the champion) and the failed points; the
// `kernelopt.selection` document the dispatch is generated from
// (<RECORDS>/<k>/<variant>.selection.json, docs/sweeps.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/records/source_hash.hpp"
#include "kopt/sweep/point_result.hpp"

namespace kopt {

inline constexpr int k_selection_schema_version = 1;
inline constexpr const char* k_selection_kind = "kernelopt.selection";
inline constexpr double k_default_select_margin = 0.03;

struct frontier_entry {
  std::string m_point;
  double m_median_ns = 0;
  double m_ratio = 1;  // its time over the champion's (>= 1)
};

struct shape_selection {
  std::string m_shape;
  std::string m_champion;
  double m_median_ns = 0;
  std::vector<frontier_entry> m_frontier;  // by time, the champion first
};

struct failed_point {
  std::string m_point;
  std::string m_reason;  // "build failed: ...", "correctness fail: ..."
};

struct selection {
  std::string m_kernel;
  std::string m_variant;
  double m_margin = k_default_select_margin;
  std::vector<std::string> m_points;  // every point swept, in order
  std::vector<shape_selection> m_shapes;  // in SHAPES order
  std::vector<failed_point> m_failed;
  // The family's sources when selected: the configure generates no dispatch
  // from a selection whose sources changed since (their per-file sha256).
  source_hash m_source;
  std::string m_utc;

  // The shapes a point serves (is the champion of), in SHAPES order.
  [[nodiscard]] std::vector<std::string> served_by(const std::string& point) const;
};

// Pure: `results` holds one finished, current result per point of the
// family. Throws std::runtime_error when a point has none, or when no point
// is usable on some shape.
[[nodiscard]] selection compute_selection(const manifest& m, const variant_decl& family,
                                          const std::vector<point_result>& results, double margin);

// Reads every point's result from `dir`; a point without a finished,
// current result is named in the error (run the sweep again).
[[nodiscard]] std::vector<point_result> load_point_results(const variant_decl& family,
                                                           const std::filesystem::path& dir);

[[nodiscard]] json to_json(const selection& s);
[[nodiscard]] selection selection_from_json(const json_reader& root);
[[nodiscard]] selection read_selection(const std::filesystem::path& path);

[[nodiscard]] std::vector<format_table> selection_tables();

}  // namespace kopt
