// kopt report: report.md and a self-contained report.html (inline CSS and
// SVG, no script, no network) from a kernel's records.
#include <fstream>
#include <ostream>
#include <sstream>

#include "kopt/commands.hpp"
#include "kopt/record_store.hpp"
#include "kopt/report_model.hpp"
#include "kopt/steps.hpp"

namespace kopt::cli {

namespace {
std::string read_notes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot read notes");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}
}  // namespace

void write_report(const manifest& m, const std::filesystem::path& out_dir, const std::string& notes) {
  // Without notes given, the campaign's own <RECORDS>/<k>/notes.md, so that
  // every report (optimize writes one per iteration) keeps them.
  const std::filesystem::path kept = m.kernel_records_dir() / "notes.md";
  const std::string text = !notes.empty() ? notes : (std::filesystem::exists(kept) ? read_notes(kept) : "");
  const report_model report = build_report(m, load_records(m), text);
  write_file_atomic(out_dir / "report.md", render_markdown(report));
  write_file_atomic(out_dir / "report.html", render_html(report));
}

int cmd_report(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const manifest m = read_manifest(args.value("--manifest"));
  std::string notes;
  if (const auto path = args.optional_value("--notes")) notes = read_notes(*path);
  const std::filesystem::path dir = args.value("--out-dir");
  write_report(m, dir, notes);
  out << "report: " << (dir / "report.md").string() << ", " << (dir / "report.html").string() << "\n";
  return k_exit_ok;
}

}  // namespace kopt::cli
