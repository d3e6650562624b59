// What the report says, computed from the manifest and the records; the
// renderers (report_markdown.cpp, report_html.cpp) only format it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kopt/experience/entry.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/records/record.hpp"
#include "kopt/records/record_store.hpp"

namespace kopt {

struct report_version {
  std::string m_variant;
  std::optional<std::string> m_parent;
  std::optional<std::string> m_hypothesis;
  bool m_recorded = false;
  bool m_quick = false;
  std::string m_correctness;           // pass | fail | incomplete | skipped | "no record"
  std::optional<double> m_geomean_ns;  // over the shapes it was timed on
  std::optional<double> m_vs_parent;   // same benchmark file
  std::optional<double> m_vs_root;     // across runs: root's records against this one's
  // ACCEPT | REJECT | MASKED | "not recorded", with " (stale)" or
  // " (inconsistent)" when the record is re-checked and does not count.
  std::string m_decision;
  std::vector<std::string> m_reasons;
  bool m_is_best = false;
  std::string m_bottleneck;                       // from the profile; "not profiled" until then
  std::vector<std::optional<double>> m_shape_ns;  // per report shape
};

// One recorded change and what came of it (the experience entry of its record).
struct report_method {
  std::string m_variant;
  std::vector<std::string> m_methods;
  std::string m_decision;
  std::string m_outcome;  // success | neutral | failure | root | unknown
  std::optional<double> m_vs_parent;
};

struct report_advice {
  std::string m_method;
  double m_score = 0;
  std::string m_evidence;  // "softmax/v1.json success 3.10x, ..."
  std::string m_tried;     // "v2 failure" or ""
};

// A family variant with a selection (docs/sweeps.md): which point serves
// which shape; the sweep report beside report.md has the rest.
struct report_family {
  std::string m_variant;
  std::vector<std::pair<std::string, std::string>> m_served;  // shape, point
  std::size_t m_points = 0;
  std::size_t m_failed = 0;
  std::string m_error;  // the selection could not be read: why
};

struct report_model {
  std::string m_kernel;
  std::string m_device;
  std::string m_generated_utc;
  std::vector<std::string> m_shapes;       // declared, then any other timed shape
  std::vector<report_version> m_versions;  // declaration order, unrecorded ones too
  std::optional<std::string> m_root;
  std::optional<std::string> m_best;
  std::optional<double> m_best_vs_root;       // across runs
  std::optional<double> m_best_vs_reference;  // best's own benchmark file
  std::vector<std::pair<std::string, std::optional<double>>> m_best_vs_baselines;
  std::optional<std::string> m_reference_name;
  std::optional<double> m_reference_geomean_ns;  // from best's benchmark file
  // Reference and baselines per report shape, from best's benchmark file.
  std::vector<std::pair<std::string, std::vector<std::optional<double>>>> m_other_rows;
  std::vector<target_result> m_targets;  // on the best
  bool m_target_met = false;
  std::string m_stop_reason;  // decide/stop.hpp's summary
  bool m_stop = false;
  std::string m_next_step;
  std::vector<report_method> m_methods_tried;     // declaration order
  std::vector<report_advice> m_recommendations;  // top 3 from the store, best first
  std::string m_store;                           // where they came from ("" = no store read)
  bool m_roofline_available = false;
  std::string m_notes;  // Markdown, as given by --notes
  std::vector<report_family> m_families;  // families with a selection, declaration order
};

// `store`: the experience store's entries (recommendations), read from
// `store_dir` by the caller; empty: none.
[[nodiscard]] report_model build_report(const manifest& m, const record_set& records, const std::string& notes,
                                        const std::vector<experience_entry>& store = {},
                                        const std::string& store_dir = "");

[[nodiscard]] std::string render_markdown(const report_model& report);
[[nodiscard]] std::string render_html(const report_model& report);
// The performance trend: geomean time per version, best-so-far line.
[[nodiscard]] std::string render_trend_svg(const report_model& report);

}  // namespace kopt
