// The sweep report of a family: the sweep table (points x shapes, each
// shape's champion marked), the per-shape champion map, the frontier and
// the failed points, in Markdown and self-contained HTML. Built from the
// selection and the points' results (kopt/sweep); `extra` sections are
// appended as given (the hook for the ablation table, docs/sweeps.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kopt/sweep/point_result.hpp"
#include "kopt/sweep/selection.hpp"

namespace kopt {

// A section another analysis adds to the sweep report (title, then its
// body in each format; the HTML body is inserted as is).
struct sweep_report_section {
  std::string m_title;
  std::string m_markdown;
  std::string m_html;
};

struct sweep_report {
  selection m_selection;
  std::vector<point_result> m_results;  // one per point, in the selection's order
  std::vector<sweep_report_section> m_extra;
};

[[nodiscard]] std::string render_sweep_markdown(const sweep_report& report);
[[nodiscard]] std::string render_sweep_html(const sweep_report& report);

// <dir>/<variant>.sweep.md and <variant>.sweep.html, atomically.
void write_sweep_report(const sweep_report& report, const std::filesystem::path& dir);

// Writes a family's selection atomically to
// <m.kernel_records_dir()>/<variant>.selection.json and its sweep report to
// <m.kernel_records_dir()>/report: what select_family writes, and what
// `kopt merge --into-records` installs from a merged selection.
void write_selection(const manifest& m, const variant_decl& family, const sweep_report& report);

// What `kopt select` does, for it and for `kopt merge`: every point's result
// from `sweep_dir` (load_point_results), the selection (compute_selection),
// written atomically to <m.kernel_records_dir()>/<variant>.selection.json,
// and the sweep report to <m.kernel_records_dir()>/report. The caller holds
// the kernel's lock where other writers may run. Throws what those throw.
[[nodiscard]] sweep_report select_family(const manifest& m, const variant_decl& family,
                                         const std::filesystem::path& sweep_dir, double margin);
[[nodiscard]] std::filesystem::path selection_file(const manifest& m, const variant_decl& family);

// Touches the build folder's selection.stamp (what the select-<k> target
// touches; the configure depends on it) when it exists, so that the next
// build configures again and generates the dispatch from the selections.
void touch_selection_stamp(const manifest& m);

}  // namespace kopt
