#include "static/sass.hpp"

#include "core/json_io.hpp"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>
#include <vector>
#include <sstream>

namespace kopt::sass {
namespace {

std::string trim(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  const std::size_t last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

// Hand-written line matchers, not std::regex: its matcher recurses once per
// character, and a long line of hostile input overflowed the stack.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

std::string trim_space(const std::string& text) {
  std::size_t first = 0;
  std::size_t last = text.size();
  while (first < last && is_space(text[first])) ++first;
  while (last > first && is_space(text[last - 1])) --last;
  return text.substr(first, last - first);
}

// `text` starts with `word`: the rest, else nullopt.
std::optional<std::string> after(const std::string& text, const std::string& word) {
  if (text.compare(0, word.size(), word) != 0) return std::nullopt;
  return text.substr(word.size());
}

bool no_space(const std::string& text) {
  for (const char c : text) {
    if (is_space(c)) return false;
  }
  return true;
}

// "sm_90a": sm_[0-9a-z]+
bool is_arch(const std::string& text) {
  if (text.size() <= 3 || text.compare(0, 3, "sm_") != 0) return false;
  for (std::size_t i = 3; i < text.size(); ++i) {
    const char c = text[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'))) return false;
  }
  return true;
}

// "\tarch = sm_90a" -> "sm_90a"
std::optional<std::string> arch_of(const std::string& line) {
  const auto rest = after(trim_space(line), "arch");
  if (!rest) return std::nullopt;
  std::string value = trim_space(*rest);
  if (value.empty() || value[0] != '=') return std::nullopt;
  value = trim_space(value.substr(1));
  return is_arch(value) ? std::optional<std::string>(value) : std::nullopt;
}

// "code for sm_90a" -> "sm_90a"
std::optional<std::string> code_for_of(const std::string& line) {
  const auto rest = after(trim_space(line), "code for");
  if (!rest || rest->empty() || !is_space((*rest)[0])) return std::nullopt;
  const std::string value = trim_space(*rest);
  return is_arch(value) ? std::optional<std::string>(value) : std::nullopt;
}

// Which part of cuobjdump's listing a line is in.
enum class section { none, elf, ptx };

// "        /*0070*/               @P0 EXIT ;      /* 0x000000000000094d */"
// -> "@P0 EXIT": between the address comment and the encoding comment, the
// trailing ';' and (pre-Volta) dual-issue braces removed.
bool instruction_text(const std::string& line, std::string& text) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  if (line.compare(i, 2, "/*") != 0) return false;
  i += 2;
  const std::size_t digits = i;
  while (i < line.size() && std::isxdigit(static_cast<unsigned char>(line[i]))) ++i;
  if (i == digits || line.compare(i, 2, "*/") != 0) return false;
  std::string rest = line.substr(i + 2);
  const std::size_t encoding = rest.rfind("/*");
  if (encoding != std::string::npos) rest = rest.substr(0, encoding);
  rest = trim(rest);
  if (!rest.empty() && rest.front() == '{') rest = trim(rest.substr(1));
  if (!rest.empty() && rest.back() == '}') rest = trim(rest.substr(0, rest.size() - 1));
  if (!rest.empty() && rest.back() == ';') rest = trim(rest.substr(0, rest.size() - 1));
  text = rest;
  return !text.empty();
}

// Every "KEY:123" or "KEY[0]:123" in a resource-usage line (the fields are
// [A-Z_]+ with an optional [index]), in order.
std::vector<std::pair<std::string, std::string>> usage_fields(const std::string& line) {
  std::vector<std::pair<std::string, std::string>> fields;
  auto upper = [](char c) { return (c >= 'A' && c <= 'Z') || c == '_'; };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0;
  while (i < line.size()) {
    if (!upper(line[i])) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < line.size() && upper(line[i])) ++i;
    std::size_t key_end = i;
    if (i < line.size() && line[i] == '[') {
      std::size_t j = i + 1;
      while (j < line.size() && digit(line[j])) ++j;
      if (j > i + 1 && j < line.size() && line[j] == ']') key_end = j + 1;
    }
    if (key_end < line.size() && line[key_end] == ':' && key_end + 1 < line.size() && digit(line[key_end + 1])) {
      std::size_t end = key_end + 1;
      while (end < line.size() && digit(line[end])) ++end;
      fields.emplace_back(line.substr(start, key_end - start), line.substr(key_end + 1, end - key_end - 1));
      i = end;
    }
  }
  return fields;
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
  std::vector<function> functions;
  section where = section::none;
  std::string arch;
  bool in_function = false;
  std::istringstream lines(valid_utf8(text));  // names and instructions end up in JSON
  std::string line;
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
    if (const auto code_arch = code_for_of(line)) {
      // A cubin given directly has no "Fatbin elf code:" header.
      where = section::elf;
      arch = *code_arch;
      in_function = false;
      continue;
    }
    if (const auto line_arch = arch_of(line)) {
      arch = *line_arch;
      continue;
    }
    // "\tFunction : _Z6kernelPf"
    std::optional<std::string> name = after(trim_space(line), "Function");
    if (name) {
      *name = trim_space(*name);
      if (name->empty() || (*name)[0] != ':') name.reset();
    }
    if (name) *name = trim_space(name->substr(1));
    if (name && !name->empty() && no_space(*name)) {
      function f;
      f.m_mangled = *name;
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
  usage_table table;
  section where = section::none;
  std::string arch = "unknown";
  std::string current;
  std::istringstream lines(valid_utf8(text));  // names and instructions end up in JSON
  std::string line;
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
    if (const auto line_arch = arch_of(line)) {
      arch = *line_arch;
      continue;
    }
    // " Function _Z6kernelPf:"
    if (const auto rest = after(trim_space(line), "Function"); rest && !rest->empty() && is_space((*rest)[0])) {
      const std::string name = trim_space(*rest);
      if (name.size() >= 2 && name.back() == ':' && no_space(name)) {
        current = name.substr(0, name.size() - 1);
        continue;
      }
    }
    if (current.empty() || line.find("REG:") == std::string::npos) continue;
    resource_usage usage;
    for (const auto& [key, digits] : usage_fields(line)) {
      const long value = std::strtol(digits.c_str(), nullptr, 10);
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
  // The demangler recurses over the symbol's structure: a name longer than
  // any real kernel's stays mangled rather than risk the stack.
  if (symbol.rfind("_Z", 0) != 0 || symbol.size() > k_max_demangle) return symbol;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                                std::free);
  return status == 0 && name ? std::string(name.get()) : symbol;
}

}  // namespace kopt::sass
