// The campaign's notes (Markdown) inside the report, through cmark-gfm
// (GitHub's CommonMark implementation, with its tables): headings moved two levels down so
// that they sit under the report's "Notes" heading; raw HTML kept as text
// and images turned into links, so that the HTML report runs nothing and
// loads nothing.
#pragma once

#include <string>

namespace kopt {

[[nodiscard]] std::string notes_to_html(const std::string& markdown);
// The same tree written back as CommonMark, for report.md: headings moved,
// raw HTML and images kept.
[[nodiscard]] std::string notes_to_markdown(const std::string& markdown);

}  // namespace kopt
