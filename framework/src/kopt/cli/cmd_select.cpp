// kopt select: the per-shape champion, the frontier and the failed points
// of a family, from its points' results; writes the selection the dispatch
// is generated from and the sweep report (kopt/sweep/selection.hpp).
#include <cstdlib>
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/records/kernel_lock.hpp"
#include "kopt/report/sweep_report.hpp"
#include "kopt/sweep/selection.hpp"

namespace kopt::cli {

int cmd_select(const arguments& args, std::ostream& out, std::ostream& err) {
  const manifest m = read_manifest_of(args);
  if (const auto kernel = args.optional_value("--kernel"); kernel && *kernel != m.m_kernel) {
    throw usage_error("--kernel " + shorten(*kernel) + ": the manifest is of kernel " + m.m_kernel);
  }
  const variant_decl& family = m.variant(args.value("--variant"));
  if (!family.m_family) {
    throw usage_error("variant " + family.m_name + " of " + m.m_kernel + " is not a family (declared without PARAMS)");
  }
  double margin = k_default_select_margin;
  if (const auto text = args.optional_value("--margin")) margin = fraction_option("--margin", *text);
  std::filesystem::path dir = family.m_family->m_sweep_dir;
  if (const auto given = args.optional_value("--sweep-dir")) dir = std::filesystem::absolute(*given).lexically_normal();
  const file_lock lock = lock_kernel(m, lock_wait_option(args), "select", err);
  const sweep_report report = select_family(m, family, dir, margin);
  touch_selection_stamp(m);
  const std::filesystem::path path = selection_file(m, family);
  if (args.has("--json")) {
    out << to_json(report.m_selection).dump(2) << "\n";
    return k_exit_ok;
  }
  const selection& s = report.m_selection;
  out << "select " << m.m_kernel << "/" << family.m_name << ": " << s.m_points.size() << " points, "
      << s.m_failed.size() << " failed, margin " << s.m_margin << "\n";
  for (const shape_selection& shape : s.m_shapes) {
    out << "  " << shape.m_shape << ": " << shape.m_champion << " (" << shape.m_frontier.size()
        << " on the frontier)\n";
  }
  for (const failed_point& f : s.m_failed) out << "  failed " << f.m_point << ": " << shorten(f.m_reason, 160) << "\n";
  out << "wrote " << path.string() << " and " << (m.kernel_records_dir() / "report" / (family.m_name + ".sweep.md")).string()
      << "; the next build configures again and builds the dispatch\n";
  return k_exit_ok;
}

}  // namespace kopt::cli
