// What the report says, computed from the manifest and the records; the
// renderers (report_markdown.cpp, report_html.cpp) only format it.
#pragma once

#include <cstdint>
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

// One implementation at one shape. Versions: from their own record. The
// reference and baselines: from the best's benchmark file, where the record
// keeps their median and noise only (no percentiles, no flags).
struct shape_row {
  std::string m_impl;
  std::string m_role;      // variant | reference | baseline
  std::string m_decision;  // the version's (as in report_version), "" for others
  bool m_is_best = false;
  std::optional<std::string> m_error;  // the benchmark of this shape failed
  double m_median_ns = 0;
  std::optional<double> m_p10_ns;
  std::optional<double> m_p90_ns;
  std::optional<double> m_noise;  // relative standard error of the median
  std::optional<double> m_tflops;
  std::optional<double> m_gbps;
  // The roofline's fraction of attainable at the work model's intensity:
  // the larger of the bandwidth ceiling's and the compute ceiling's
  // fractions, and which one that was. nullopt without measured ceilings.
  std::optional<std::string> m_ceiling;
  std::optional<double> m_pct_of_ceiling;
  // Baseline's median / this median, same benchmark file; per m_baselines.
  std::vector<std::optional<double>> m_vs_baselines;
  std::vector<std::string> m_flags;
};

struct shape_table {
  std::string m_shape;
  std::vector<shape_row> m_rows;  // versions in declaration order, then reference, baselines
};

// A rate the roofline is drawn against.
struct roof {
  std::string m_name;  // copy_bandwidth, bf16_tensor, ...
  double m_value = 0;  // B/s (bandwidth) or FLOP/s
  bool m_measured = false;
};

struct roofline_dot {
  std::string m_impl;
  std::string m_shape;
  double m_intensity = 0;    // FLOP/B
  double m_flops_per_s = 0;  // achieved
  bool m_is_best = false;
  std::string m_source;  // "profile" (Nsight Compute's duration) | "work model" (benchmark median)
};

struct roofline_model {
  std::optional<roof> m_bandwidth;
  // The compute ceiling a profile chose (by input dtype and tensor-pipe
  // use); nullopt when no record was profiled.
  std::optional<std::string> m_compute_ceiling;
  std::vector<roof> m_compute;       // the chosen one, or every non-sparse rate when none was chosen
  std::string m_compute_why;         // why these compute roofs
  std::vector<roofline_dot> m_dots;  // one per version and timed shape
  std::vector<std::string> m_missing;  // versions/shapes without a dot, and why
};

// One implementation's spread at one shape, for the best and the baselines
// (else the reference): what the record keeps, nothing more.
struct distribution_row {
  std::string m_shape;
  std::string m_impl;
  std::string m_role;  // best | baseline | reference
  double m_median_ns = 0;
  std::optional<double> m_p10_ns;  // the best's only
  std::optional<double> m_p90_ns;
  std::optional<double> m_noise;
  std::int64_t m_samples = 0;  // 0: not kept
};

// The machine and clocks of one recorded version's run.
struct run_environment {
  std::string m_variant;
  std::string m_device;
  std::string m_driver;
  std::string m_cuda;
  std::string m_sm_clock;  // during timing: "1680-1980 MHz (limit 1980)", or "unknown"
  // Flags over the shapes: "throttled (3 of 3 shapes: sw_power_cap)".
  std::vector<std::string> m_flags;
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

// A recorded variant's ablation (kopt ablate, docs/ablation.md).
struct report_ablation {
  std::string m_variant;
  ablation_result m_result;
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
  std::vector<report_ablation> m_ablations;  // declaration order, recorded variants with one
  bool m_roofline_available = false;
  std::string m_notes;  // Markdown, as given by --notes
  std::vector<report_family> m_families;  // families with a selection, declaration order

  std::vector<std::string> m_baselines;      // declared baselines: the vs columns
  std::vector<shape_table> m_shape_tables;   // per report shape
  roofline_model m_roofline;
  std::vector<distribution_row> m_distribution;
  // The best's (else the newest) machine, label and value; "unknown" with
  // the env document's reason where it has none.
  std::vector<std::pair<std::string, std::string>> m_machine;
  std::vector<run_environment> m_runs;  // per recorded version
};

// `store`: the experience store's entries (recommendations), read from
// `store_dir` by the caller; empty: none.
[[nodiscard]] report_model build_report(const manifest& m, const record_set& records, const std::string& notes,
                                        const std::vector<experience_entry>& store = {},
                                        const std::string& store_dir = "");

// The parts build_report assembles (report_numbers.cpp, report_roofline.cpp,
// report_environment.cpp); each reads report.m_versions and m_shapes.
// add_roofline first: the shape tables' % of ceiling uses its compute ceiling.
void add_roofline(const record_set& records, report_model& report);
void add_shape_tables(const manifest& m, const record_set& records, report_model& report);
void add_environment(const record_set& records, report_model& report);

[[nodiscard]] std::string render_markdown(const report_model& report);
// The attribution table of one ablation (Markdown, HTML): a row per method
// and shape, then each method's geomean row; kopt ablate prints the first.
[[nodiscard]] std::string render_ablation_markdown(const ablation_result& a);
[[nodiscard]] std::string render_ablation_html(const ablation_result& a);
[[nodiscard]] std::string render_html(const report_model& report);
// The charts (inline SVG, ids trend-chart, roofline-chart, distribution-chart).
// The trend: median time per version, one line per shape, the reference and
// baselines as dashed lines.
[[nodiscard]] std::string render_trend_svg(const report_model& report);
// Log-log roofline: measured roofs, one dot per version and shape, the best's highlighted.
[[nodiscard]] std::string render_roofline_svg(const report_model& report);
// Per shape: the best's p10-median-p90 and the baselines' median +- noise.
[[nodiscard]] std::string render_distribution_svg(const report_model& report);

// Noise with two significant digits ("0.024%"): one decimal shows most
// GPU noise as 0.0%.
[[nodiscard]] std::string format_noise(std::optional<double> fraction);
// "cublas (baseline)", "reference", "v3".
[[nodiscard]] std::string row_label(const shape_row& row);

}  // namespace kopt
