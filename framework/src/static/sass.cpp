#include "static/sass.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <regex>
#include <sstream>

namespace kopt::sass {
namespace {

std::string trim(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  const std::size_t last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

// Which part of cuobjdump's listing a line is in.
enum class section { none, elf, ptx };

// "        /*0070*/               @P0 EXIT ;      /* 0x000000000000094d */"
// -> "@P0 EXIT": between the address comment and the encoding comment, the
// trailing ';' and (pre-Volta) dual-issue braces removed.
bool instruction_text(const std::string& line, std::string& text) {
  static const std::regex address(R"(^\s*/\*[0-9a-fA-F]+\*/(.*)$)");
  std::smatch match;
  if (!std::regex_match(line, match, address)) return false;
  std::string rest = match[1].str();
  const std::size_t encoding = rest.rfind("/*");
  if (encoding != std::string::npos) rest = rest.substr(0, encoding);
  rest = trim(rest);
  if (!rest.empty() && rest.front() == '{') rest = trim(rest.substr(1));
  if (!rest.empty() && rest.back() == '}') rest = trim(rest.substr(0, rest.size() - 1));
  if (!rest.empty() && rest.back() == ';') rest = trim(rest.substr(0, rest.size() - 1));
  text = rest;
  return !text.empty();
}

instruction split_instruction(const std::string& text) {
  instruction result;
  std::string rest = text;
  if (!rest.empty() && rest.front() == '@') {
    const std::size_t space = rest.find_first_of(" \t");
    result.m_guard = rest.substr(0, space);
    rest = space == std::string::npos ? std::string() : trim(rest.substr(space));
  }
  result.m_text = rest;
  result.m_opcode = rest.substr(0, rest.find_first_of(" \t"));
  return result;
}

}  // namespace

std::string instruction::family() const { return m_opcode.substr(0, m_opcode.find('.')); }

std::string function::name() const { return demangle(m_mangled); }

long function::local_stores() const {
  long count = 0;
  for (const instruction& i : m_instructions) count += i.family() == "STL" ? 1 : 0;
  return count;
}

long function::local_loads() const {
  long count = 0;
  for (const instruction& i : m_instructions) count += i.family() == "LDL" ? 1 : 0;
  return count;
}

std::map<std::string, long> function::families() const {
  std::map<std::string, long> counts;
  for (const instruction& i : m_instructions) ++counts[i.family()];
  return counts;
}

std::vector<function> parse_sass(const std::string& text, const std::string& object) {
  static const std::regex arch_line(R"(^\s*arch\s*=\s*(sm_[0-9a-z]+)\s*$)");
  static const std::regex code_for(R"(^\s*code for\s+(sm_[0-9a-z]+)\s*$)");
  static const std::regex function_line(R"(^\s*Function\s*:\s*(\S+)\s*$)");
  std::vector<function> functions;
  section where = section::none;
  std::string arch;
  bool in_function = false;
  std::istringstream lines(text);
  std::string line;
  std::smatch match;
  while (std::getline(lines, line)) {
    if (line.find("Fatbin elf code:") != std::string::npos) {
      where = section::elf;
      in_function = false;
      arch.clear();
      continue;
    }
    if (line.find("Fatbin ptx code:") != std::string::npos) {
      where = section::ptx;
      in_function = false;
      continue;
    }
    if (where == section::ptx) continue;
    if (std::regex_match(line, match, code_for)) {
      // A cubin given directly has no "Fatbin elf code:" header.
      where = section::elf;
      arch = match[1].str();
      in_function = false;
      continue;
    }
    if (std::regex_match(line, match, arch_line)) {
      arch = match[1].str();
      continue;
    }
    if (std::regex_match(line, match, function_line)) {
      function f;
      f.m_mangled = match[1].str();
      f.m_arch = arch.empty() ? "unknown" : arch;
      f.m_object = object;
      functions.push_back(std::move(f));
      in_function = true;
      continue;
    }
    std::string body;
    if (in_function && instruction_text(line, body)) {
      functions.back().m_instructions.push_back(split_instruction(body));
    }
  }
  return functions;
}

usage_table parse_resource_usage(const std::string& text) {
  static const std::regex arch_line(R"(^\s*arch\s*=\s*(sm_[0-9a-z]+)\s*$)");
  static const std::regex function_line(R"(^\s*Function\s+(\S+?):\s*$)");
  static const std::regex field(R"(([A-Z_]+(\[[0-9]+\])?):([0-9]+))");
  usage_table table;
  section where = section::none;
  std::string arch = "unknown";
  std::string current;
  std::istringstream lines(text);
  std::string line;
  std::smatch match;
  while (std::getline(lines, line)) {
    if (line.find("Fatbin elf code:") != std::string::npos) {
      where = section::elf;
      current.clear();
      continue;
    }
    if (line.find("Fatbin ptx code:") != std::string::npos) {
      where = section::ptx;
      current.clear();
      continue;
    }
    if (where == section::ptx) continue;
    if (std::regex_match(line, match, arch_line)) {
      arch = match[1].str();
      continue;
    }
    if (std::regex_match(line, match, function_line)) {
      current = match[1].str();
      continue;
    }
    if (current.empty() || line.find("REG:") == std::string::npos) continue;
    resource_usage usage;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), field); it != std::sregex_iterator(); ++it) {
      const std::string key = (*it)[1].str();
      const long value = std::strtol((*it)[3].str().c_str(), nullptr, 10);
      if (key == "REG") usage.m_registers = value;
      if (key == "STACK") usage.m_stack_bytes = value;
      if (key == "SHARED") usage.m_shared_bytes = value;
      if (key == "LOCAL") usage.m_local_bytes = value;
      if (key == "CONSTANT[0]") usage.m_constant0_bytes = value;
    }
    table[{arch, current}] = usage;
    current.clear();
  }
  return table;
}

void attach_usage(std::vector<function>& functions, const usage_table& table) {
  for (function& f : functions) {
    const auto it = table.find({f.m_arch, f.m_mangled});
    if (it == table.end()) continue;
    f.m_usage = it->second;
    f.m_has_usage = true;
  }
}

std::string demangle(const std::string& symbol) {
  if (symbol.rfind("_Z", 0) != 0) return symbol;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                                std::free);
  return status == 0 && name ? std::string(name.get()) : symbol;
}

}  // namespace kopt::sass
