// report.md and report.html of a kernel, from its records and notes.
#pragma once

#include <filesystem>
#include <string>

#include "kopt/inputs/manifest.hpp"

namespace kopt {

// The notes file's text; std::runtime_error naming it when unreadable.
[[nodiscard]] std::string read_notes(const std::filesystem::path& path);

// report.md and report.html into `out_dir`. Without `notes`, the
// campaign's own <RECORDS>/<k>/notes.md, so that every report keeps them.
void write_report(const manifest& m, const std::filesystem::path& out_dir, const std::string& notes);

}  // namespace kopt
