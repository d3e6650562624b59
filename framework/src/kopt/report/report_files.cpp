#include "kopt/report/report_files.hpp"

#include <fstream>
#include <sstream>

#include "kopt/experience/store.hpp"
#include "kopt/records/record_store.hpp"
#include "kopt/report/report_model.hpp"

namespace kopt {

std::string read_notes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot read notes");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void write_report(const manifest& m, const std::filesystem::path& out_dir, const std::string& notes) {
  // Without notes given, the campaign's own <RECORDS>/<k>/notes.md, so that
  // every report (optimize writes one per iteration) keeps them.
  const std::filesystem::path kept = m.kernel_records_dir() / "notes.md";
  const std::string text = !notes.empty() ? notes : (std::filesystem::exists(kept) ? read_notes(kept) : "");
  const std::filesystem::path store = *experience_dir(std::nullopt, &m);
  const report_model report = build_report(m, load_records(m), text, read_experience(store), store.string());
  write_file_atomic(out_dir / "report.md", render_markdown(report));
  write_file_atomic(out_dir / "report.html", render_html(report));
}

}  // namespace kopt
