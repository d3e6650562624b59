// `kopt sweep`: builds, tests and times the points of a family, one result
// file per point (point_result.hpp). Points are built in batches of
// `jobs` by one `cmake --build` that keeps going past a failing point, so
// a compile error is that point's result; each point's correctness and
// benchmark run in their own processes. A point whose current result is
// finished is not run again (resume), unless forced; a time budget stops
// the sweep between batches; a build-only run leaves every built point
// unfinished, so that the next run (one ctest per point, on several GPUs)
// tests and times it without building it again (docs/sweeps.md).
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "kopt/inputs/manifest.hpp"

namespace kopt {

struct sweep_options {
  std::vector<std::string> m_points;  // the points to run; empty: all of the family
  double m_budget_s = 0;              // 0: no budget
  int m_jobs = 2;                     // points built at once
  bool m_force = false;               // run finished points again
  bool m_build_only = false;          // build the points, neither test nor time them (a later run does)
  std::filesystem::path m_dir;        // where the results go; empty: the family's sweep_dir
};

struct sweep_summary {
  int m_total = 0;       // points asked for
  int m_current = 0;     // already finished with the current sources: not run again
  int m_run = 0;         // run to a result now
  int m_not_started = 0;  // left for a later run by the budget
  int m_usable = 0;      // of the points asked for, built, correct and timed
  int m_skipped = 0;     // run now, but correctness or bench skipped (no GPU)
};

// The build's own report of one point: "" when the output names no
// failure of its target (ninja's "FAILED: " and make's "*** [" lines that
// name `<target>.dir/` or its library), else those lines and what follows
// them up to the next failure. Pure; tested with captured output.
[[nodiscard]] std::string point_build_failure(const std::string& build_output, const point_decl& point);

// REQUIRES: `family` has a family. Throws usage_error for an unknown point.
[[nodiscard]] sweep_summary run_sweep(const manifest& m, const variant_decl& family, const sweep_options& options,
                                      std::ostream& out);

}  // namespace kopt
