// kopt report: report.md and a self-contained report.html (inline CSS and
// SVG, no script, no network) from a kernel's records.
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/report/report_files.hpp"

namespace kopt::cli {

int cmd_report(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const manifest m = read_manifest_of(args);
  std::string notes;
  if (const auto path = args.optional_value("--notes")) notes = read_notes(*path);
  const std::filesystem::path dir = args.value("--out-dir");
  write_report(m, dir, notes);
  out << "report: " << (dir / "report.md").string() << ", " << (dir / "report.html").string() << "\n";
  return k_exit_ok;
}

}  // namespace kopt::cli
