#include "static/ownership.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace kopt::sass {
namespace {

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Comments, string and character literals and preprocessor lines replaced
// by spaces: what is left is declarations and code.
std::string code_only(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool line_start = true;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      out += '\n';
      line_start = true;
      ++i;
      continue;
    }
    if (line_start && c == '#') {  // a directive, with its continuation lines
      while (i < text.size() && !(text[i] == '\n' && (i == 0 || text[i - 1] != '\\'))) ++i;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) line_start = false;
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const std::size_t end = text.find("*/", i + 2);
      i = end == std::string::npos ? text.size() : end + 2;
      out += ' ';
      continue;
    }
    if (c == '"' || c == '\'') {
      // NOTE: raw string literals are not handled.
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (text[i] == '\\') ++i;
      }
      ++i;
      out += ' ';
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

// Identifiers and single punctuation characters; numbers become "0".
std::vector<std::string> tokens_of(const std::string& code) {
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < code.size();) {
    const char c = code[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (identifier_start(c)) {
      const std::size_t start = i;
      while (i < code.size() && identifier_char(code[i])) ++i;
      tokens.push_back(code.substr(start, i - start));
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < code.size() && (identifier_char(code[i]) || code[i] == '.')) ++i;
      tokens.emplace_back("0");
    } else {
      tokens.emplace_back(1, c);
      ++i;
    }
  }
  return tokens;
}

// The index after the group that opens at tokens[i] ("(", "<" or "[").
std::size_t skip_group(const std::vector<std::string>& tokens, std::size_t i) {
  const std::string open = tokens[i];
  const std::string close = open == "(" ? ")" : open == "<" ? ">" : "]";
  int depth = 0;
  for (; i < tokens.size(); ++i) {
    if (tokens[i] == open) ++depth;
    if (tokens[i] == close && --depth == 0) return i + 1;
  }
  return tokens.size();
}

// __launch_bounds__, __cluster_dims__, __maxnreg__, __attribute__, ...
bool attribute_like(const std::string& token) {
  return token.size() > 4 && token.rfind("__", 0) == 0 && token.compare(token.size() - 2, 2, "__") == 0;
}

// The index past a balanced group of `text` that ends at `end` (exclusive),
// scanning backwards: text[result] == open.
std::size_t group_start(const std::string& text, std::size_t end, char open, char close) {
  int depth = 0;
  for (std::size_t i = end; i-- > 0;) {
    if (text[i] == close) ++depth;
    if (text[i] == open && --depth == 0) return i;
  }
  return std::string::npos;
}

std::string read_text(const std::string& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::ostringstream text;
  if (ok) text << in.rdbuf();
  return text.str();
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace

std::vector<std::string> global_function_names(const std::string& text) {
  const std::vector<std::string> tokens = tokens_of(code_only(text));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] != "__global__") continue;
    std::string last;
    for (std::size_t j = i + 1; j < tokens.size();) {
      const std::string& t = tokens[j];
      if (identifier_start(t[0])) {
        if (attribute_like(t) && j + 1 < tokens.size() && tokens[j + 1] == "(") {
          j = skip_group(tokens, j + 1);
          continue;
        }
        last = t;
        ++j;
      } else if (t == "<" || t == "[") {
        j = skip_group(tokens, j);
      } else if (t == "(") {
        const std::size_t after = skip_group(tokens, j);
        const bool body = after < tokens.size() && tokens[after] == "{";
        if (body && !last.empty() && std::find(names.begin(), names.end(), last) == names.end()) {
          names.push_back(last);
        }
        break;
      } else if (t == ";" || t == "{" || t == "}" || t == "=") {
        break;
      } else {
        ++j;  // '*', '&', ':', ','
      }
    }
  }
  return names;
}

std::string unqualified_name(const std::string& demangled) {
  std::string name = demangled;
  if (!name.empty() && name.back() == ')') {
    const std::size_t open = group_start(name, name.size(), '(', ')');
    if (open != std::string::npos) name = name.substr(0, open);
  }
  if (!name.empty() && name.back() == '>') {
    const std::size_t open = group_start(name, name.size(), '<', '>');
    if (open != std::string::npos) name = name.substr(0, open);
  }
  const std::size_t scope = name.rfind("::");
  if (scope != std::string::npos) name = name.substr(scope + 2);
  const std::size_t space = name.rfind(' ');
  if (space != std::string::npos) name = name.substr(space + 1);
  return name;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error_a;
  std::error_code error_b;
  const std::filesystem::path pa = std::filesystem::weakly_canonical(a, error_a);
  const std::filesystem::path pb = std::filesystem::weakly_canonical(b, error_b);
  if (error_a || error_b) return std::filesystem::path(a).lexically_normal() == std::filesystem::path(b).lexically_normal();
  return pa == pb;
}

bool same_file_elsewhere(const std::string& recorded, const std::string& source) {
  const std::filesystem::path a = std::filesystem::path(recorded).lexically_normal();
  const std::filesystem::path b = std::filesystem::path(source).lexically_normal();
  std::vector<std::string> tail_a;
  std::vector<std::string> tail_b;
  for (const auto& part : a) tail_a.push_back(part.string());
  for (const auto& part : b) tail_b.push_back(part.string());
  std::size_t common = 0;
  while (common < tail_a.size() && common < tail_b.size() &&
         tail_a[tail_a.size() - 1 - common] == tail_b[tail_b.size() - 1 - common] &&
         tail_a[tail_a.size() - 1 - common] != "..") {
    ++common;
  }
  if (common < 2) return false;
  std::error_code error;
  if (!std::filesystem::exists(recorded, error)) return true;
  bool ok_recorded = false;
  bool ok_source = false;
  const std::string recorded_text = read_text(recorded, ok_recorded);
  return ok_recorded && recorded_text == read_text(source, ok_source) && ok_source;
}

std::vector<std::string> assign_ownership(std::vector<function>& functions, const std::vector<std::string>& sources) {
  std::vector<std::string> notes;
  bool parsed = false;
  std::map<std::string, std::string> defined_by_source;  // kernel name -> the first source defining it
  long by_line_info = 0;
  long by_source_text = 0;
  std::vector<std::string> relocated;  // "<recorded> as <source>", each once
  for (function& f : functions) {
    if (!f.m_defined_in.empty()) {
      f.m_own = std::any_of(sources.begin(), sources.end(),
                            [&](const std::string& source) { return same_file(f.m_defined_in, source); });
      if (!f.m_own) {
        const auto it = std::find_if(sources.begin(), sources.end(), [&](const std::string& source) {
          return same_file_elsewhere(f.m_defined_in, source);
        });
        if (it != sources.end()) {
          const std::string pair = f.m_defined_in + " as " + *it;
          if (std::find(relocated.begin(), relocated.end(), pair) == relocated.end()) relocated.push_back(pair);
          f.m_own = true;
          f.m_defined_in = *it;
        }
      }
      ++by_line_info;
      continue;
    }
    if (!parsed) {
      parsed = true;
      for (const std::string& source : sources) {
        bool ok = false;
        const std::string text = read_text(source, ok);
        if (!ok) {
          notes.push_back("cannot read source " + source + " to find the kernels it defines");
          continue;
        }
        for (const std::string& name : global_function_names(text)) defined_by_source.emplace(name, source);
      }
    }
    const auto it = defined_by_source.find(unqualified_name(f.name()));
    f.m_own = it != defined_by_source.end();
    f.m_defined_in = f.m_own ? it->second : std::string();
    f.m_defined_by = "source text";
    ++by_source_text;
  }
  if (!relocated.empty()) {
    std::string list;
    for (const std::string& pair : relocated) list += (list.empty() ? "" : "; ") + pair;
    notes.push_back("the line table names files of another checkout, read as the SOURCES with the same trailing path "
                    "(an object compiled in another checkout, e.g. a ccache hit under base_dir): " + list);
  }
  if (by_source_text > 0) {
    std::vector<std::string> names;
    for (const std::string& source : sources) names.push_back(file_name(source));
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    notes.push_back(std::to_string(by_source_text) + " of " + std::to_string(by_line_info + by_source_text) +
                    " function(s) without line info (compiled without -lineinfo, or the line table not read): own when a __global__ function "
                    "of that name is defined in the SOURCES (" + list + "), by a rough reading of their text");
  }
  return notes;
}

}  // namespace kopt::sass
