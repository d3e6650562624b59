#include "kopt/inputs/names.hpp"

#include <algorithm>

namespace kopt {
namespace {

bool has_dot_dot(const std::filesystem::path& path) {
  return std::any_of(path.begin(), path.end(), [](const std::filesystem::path& part) { return part == ".."; });
}

// Control characters and the like shown as \xNN, so an error message about a
// hostile value cannot itself garble the terminal.
std::string printable(const std::string& text) {
  static const char* const digits = "0123456789abcdef";
  std::string out;
  for (const char c : text.substr(0, 200)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += digits[byte >> 4];
      out += digits[byte & 0xf];
    } else {
      out += c;
    }
  }
  return text.size() > 200 ? out + "..." : out;
}

std::string name_problem(const std::string& name) {
  return "\"" + printable(name) + "\" is not a valid name ([A-Za-z_][A-Za-z0-9_]*, at most " +
         std::to_string(k_max_name_length) + " characters, as kernel_opt_add_kernel declares them)";
}

}  // namespace

bool is_valid_name(const std::string& name) {
  if (name.empty() || name.size() > k_max_name_length) return false;
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!letter(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

std::string read_name(const json_reader& node) {
  std::string name = node.as_string();
  if (!is_valid_name(name)) node.fail(name_problem(name));
  return name;
}

std::filesystem::path read_root_dir(const json_reader& node) {
  const std::filesystem::path dir = node.as_string();
  if (!dir.is_absolute() || has_dot_dot(dir)) {
    node.fail("\"" + printable(dir.string()) + "\" must be an absolute directory without '..' components");
  }
  return dir;
}

void check_name(const std::string& name, const std::string& file, const std::string& field) {
  if (!is_valid_name(name)) throw format_error(file + ": " + field + ": " + name_problem(name));
}

}  // namespace kopt
