// The names and directories kopt reads from a manifest or a record and then
// writes under: held to the rule the CMake functions enforce
// (cmake/kernelopt/Limits.cmake), so that a hand-edited `../../../x` never
// becomes a path outside the records or build folder.
#pragma once

#include <filesystem>
#include <string>

#include "core/json_io.hpp"

namespace kopt {

// Kernel, variant and baseline names: [A-Za-z_][A-Za-z0-9_]*, at most this
// many characters (the CMake side's limit).
inline constexpr std::size_t k_max_name_length = 64;

[[nodiscard]] bool is_valid_name(const std::string& name);

// The string at `node`, which must be a valid name; otherwise format_error
// naming the file and the JSON path.
[[nodiscard]] std::string read_name(const json_reader& node);

// The directory at `node` (records_dir, build_dir): absolute, with no `..`
// component; otherwise format_error naming the file and the JSON path.
[[nodiscard]] std::filesystem::path read_root_dir(const json_reader& node);

// Throws format_error "<file>: <field>: "<name>" is not a valid name (...)"
// unless is_valid_name(name): for names that reach a path from elsewhere
// than a JSON file (a command-line --variant, a manifest built in code).
void check_name(const std::string& name, const std::string& file, const std::string& field);

}  // namespace kopt
