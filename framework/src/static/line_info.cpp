#include "static/line_info.hpp"

#include <regex>
#include <sstream>

namespace kopt::sass {

definition_table parse_line_info(const std::string& nvdisasm_text) {
  static const std::regex target_line(R"(^\s*\.target\s+(sm_[0-9a-z]+)\b.*$)");
  static const std::regex section_label(R"(^\.text\.(\S+):\s*$)");
  static const std::regex file_entry(R"re(^\s*//## File\s+"([^"]*)")re");
  static const std::regex inlined_at(R"re(inlined at\s+"([^"]*)")re");
  definition_table table;
  std::string arch = "unknown";
  std::string current;  // the function whose first entry is still to come
  std::istringstream lines(nvdisasm_text);
  std::string line;
  std::smatch match;
  while (std::getline(lines, line)) {
    if (std::regex_match(line, match, target_line)) {
      arch = match[1].str();
      continue;
    }
    if (std::regex_match(line, match, section_label)) {
      current = match[1].str();
      continue;
    }
    if (current.empty() || !std::regex_search(line, match, file_entry)) continue;
    std::string file = match[1].str();
    // The outermost call site: the last "inlined at" of the entry.
    for (auto it = std::sregex_iterator(line.begin(), line.end(), inlined_at); it != std::sregex_iterator(); ++it) {
      file = (*it)[1].str();
    }
    table.emplace(std::make_pair(arch, current), file);
    current.clear();
  }
  return table;
}

void attach_definitions(std::vector<function>& functions, const definition_table& table) {
  for (function& f : functions) {
    const auto it = table.find({f.m_arch, f.m_mangled});
    if (it == table.end()) continue;
    f.m_defined_in = it->second;
    f.m_defined_by = "line info";
  }
}

}  // namespace kopt::sass
