// The campaign's notes (Markdown) inside the report, through cmark-gfm
// (GitHub's CommonMark implementation, with its tables): headings moved two levels down so
// that they sit under the report's "Notes" heading; raw HTML kept as text
// and images turned into links, so that the HTML report runs nothing and
// loads nothing.
//
// cmark-gfm is optional (KernelOpt_HAVE_CMARK_GFM at configure time). A kopt
// built without it shows the notes as plain text, with a line saying why:
// notes_to_html / notes_to_markdown then return notes_as_plain_html /
// notes_as_plain_markdown.
#pragma once

#include <string>

namespace kopt {

// True when this kopt was built with cmark-gfm (notes rendered as Markdown).
[[nodiscard]] bool notes_markdown_available();

[[nodiscard]] std::string notes_to_html(const std::string& markdown);
// The same tree written back as CommonMark, for report.md: headings moved,
// raw HTML and images kept.
[[nodiscard]] std::string notes_to_markdown(const std::string& markdown);

// The fallback, in every build: the line saying the notes are plain text,
// then the notes escaped in a <pre> (HTML) or verbatim (Markdown).
[[nodiscard]] std::string notes_as_plain_html(const std::string& notes);
[[nodiscard]] std::string notes_as_plain_markdown(const std::string& notes);

}  // namespace kopt
