// The notes without cmark-gfm (notes_markdown.hpp): compiled in every build,
// so that the fallback is tested where cmark-gfm is installed too.
#include "kopt/report/html.hpp"
#include "kopt/report/notes_markdown.hpp"

namespace kopt {
namespace {

constexpr const char* k_plain_text_line =
    "Notes shown as plain text: kopt was built without cmark-gfm (libcmark-gfm-dev, "
    "libcmark-gfm-extensions-dev).";

}  // namespace

std::string notes_as_plain_html(const std::string& notes) {
  return std::string("<p class=\"muted\">") + html_escape(k_plain_text_line) + "</p>\n<pre>" + html_escape(notes) +
         "</pre>\n";
}

std::string notes_as_plain_markdown(const std::string& notes) {
  std::string out = std::string("_") + k_plain_text_line + "_\n\n" + notes;
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

}  // namespace kopt
