// The notes through cmark-gfm; without it (KOPT_HAVE_CMARK_GFM unset) the
// plain-text fallback of notes_plain.cpp.
#include "kopt/report/notes_markdown.hpp"

#if KOPT_HAVE_CMARK_GFM
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <vector>
#endif

namespace kopt {

#if KOPT_HAVE_CMARK_GFM
namespace {

// cmark's safe mode (the default since 0.29, an option before) drops raw
// HTML and javascript:/data: links; the tree is made safe before that anyway.
// GitHub's extensions: notes hold tables.
#ifdef CMARK_OPT_UNSAFE
constexpr int k_options = CMARK_OPT_DEFAULT;
#else
constexpr int k_options = CMARK_OPT_DEFAULT | CMARK_OPT_SAFE;
#endif

struct tree_deleter {
  void operator()(cmark_node* node) const { cmark_node_free(node); }
};
using tree = std::unique_ptr<cmark_node, tree_deleter>;

struct text_deleter {
  void operator()(char* text) const { std::free(text); }
};

struct parser_deleter {
  void operator()(cmark_parser* parser) const { cmark_parser_free(parser); }
};
using parser = std::unique_ptr<cmark_parser, parser_deleter>;

parser new_parser() {
  cmark_gfm_core_extensions_ensure_registered();
  parser p(cmark_parser_new(k_options));
  for (const char* name : {"table", "strikethrough", "autolink", "tasklist"}) {
    if (cmark_syntax_extension* ext = cmark_find_syntax_extension(name))
      cmark_parser_attach_syntax_extension(p.get(), ext);
  }
  return p;
}

// `for_html`: raw HTML becomes text and images links (report.md keeps them:
// its reader decides what Markdown may run or load).
tree parse(cmark_parser* p, const std::string& markdown, bool for_html) {
  cmark_parser_feed(p, markdown.data(), markdown.size());
  tree root(cmark_parser_finish(p));
  std::vector<cmark_node*> raw_html;
  std::vector<cmark_node*> images;
  cmark_iter* iter = cmark_iter_new(root.get());
  for (cmark_event_type ev; (ev = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
    if (ev != CMARK_EVENT_ENTER) continue;
    cmark_node* node = cmark_iter_get_node(iter);
    switch (cmark_node_get_type(node)) {
      case CMARK_NODE_HEADING:
        cmark_node_set_heading_level(node, std::min(6, cmark_node_get_heading_level(node) + 2));
        break;
      case CMARK_NODE_HTML_INLINE:
      case CMARK_NODE_HTML_BLOCK:
        if (for_html) raw_html.push_back(node);
        break;
      case CMARK_NODE_IMAGE:
        if (for_html) images.push_back(node);
        break;
      default:
        break;
    }
  }
  cmark_iter_free(iter);
  for (cmark_node* node : raw_html) {
    const bool block = cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK;
    cmark_node* text = cmark_node_new(block ? CMARK_NODE_CODE_BLOCK : CMARK_NODE_TEXT);
    cmark_node_set_literal(text, cmark_node_get_literal(node));
    cmark_node_replace(node, text);
    cmark_node_free(node);
  }
  for (cmark_node* node : images) {
    cmark_node* link = cmark_node_new(CMARK_NODE_LINK);
    cmark_node_set_url(link, cmark_node_get_url(node));
    cmark_node_set_title(link, cmark_node_get_title(node));
    while (cmark_node* child = cmark_node_first_child(node)) cmark_node_append_child(link, child);
    cmark_node_replace(node, link);
    cmark_node_free(node);
  }
  return root;
}

std::string take(char* text) {
  const std::unique_ptr<char, text_deleter> owned(text);
  return owned ? std::string(owned.get()) : std::string();
}

}  // namespace

std::string notes_to_html(const std::string& markdown) {
  const parser p = new_parser();
  const tree root = parse(p.get(), markdown, true);
  return take(cmark_render_html(root.get(), k_options, cmark_parser_get_syntax_extensions(p.get())));
}

std::string notes_to_markdown(const std::string& markdown) {
  const parser p = new_parser();
  const tree root = parse(p.get(), markdown, false);
  return take(cmark_render_commonmark(root.get(), k_options, 0));
}

bool notes_markdown_available() { return true; }

#else

bool notes_markdown_available() { return false; }

std::string notes_to_html(const std::string& markdown) { return notes_as_plain_html(markdown); }

std::string notes_to_markdown(const std::string& markdown) { return notes_as_plain_markdown(markdown); }

#endif

}  // namespace kopt
