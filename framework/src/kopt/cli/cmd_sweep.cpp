// kopt sweep: builds, tests and times the points of a family
// (kopt/sweep/sweep_run.hpp); one result file per point, resumable.
#include <cstdlib>
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/sweep/sweep_run.hpp"

namespace kopt::cli {

int cmd_sweep(const arguments& args, std::ostream& out, std::ostream& err) {
  (void)err;
  const manifest m = read_manifest(args.value("--manifest"));
  const variant_decl& family = m.variant(args.value("--variant"));
  if (!family.m_family) {
    throw usage_error("variant " + family.m_name + " of " + m.m_kernel + " is not a family (declared without PARAMS)");
  }
  sweep_options options;
  options.m_points = args.values("--point");
  if (const auto budget = args.optional_value("--budget")) {
    options.m_budget_s = int_option("--budget", *budget, 0, 30 * 86400);
  }
  if (const auto jobs = args.optional_value("--jobs")) options.m_jobs = int_option("--jobs", *jobs, 1, 1024);
  options.m_force = args.has("--force");
  options.m_build_only = args.has("--build-only");
  if (const auto dir = args.optional_value("--sweep-dir")) {
    if (dir->empty()) throw usage_error("--sweep-dir: the folder name is empty");
    options.m_dir = std::filesystem::absolute(*dir).lexically_normal();
  }
  const sweep_summary summary = run_sweep(m, family, options, out);
  if (summary.m_not_started > 0) return k_exit_fail;
  if (options.m_build_only) return k_exit_ok;
  // Nothing could be measured here (no GPU): CTest's skip, tried again next run.
  if (summary.m_skipped > 0 && summary.m_skipped == summary.m_run && summary.m_current == 0) return k_exit_skipped;
  return k_exit_ok;
}

}  // namespace kopt::cli
