// Command-line options of one subcommand: `--name VALUE` or `--name=VALUE`,
// switches, repeatable options, positionals. Declared in the command table;
// parser.hpp reads a command line (CLI11) into `arguments`.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/json_io.hpp"  // usage_error

namespace kopt::cli {

struct option_spec {
  enum kind_t { optional, required, repeated, repeated_required, flag };
  const char* m_name;   // "--manifest"
  const char* m_value;  // "FILE"; "" for a flag
  kind_t m_kind;
  const char* m_help;
};

class arguments {
 public:
  [[nodiscard]] bool has(const std::string& name) const { return m_values.count(name) != 0; }
  // The option's only value; REQUIRES: the option was given.
  [[nodiscard]] const std::string& value(const std::string& name) const;
  [[nodiscard]] std::optional<std::string> optional_value(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> values(const std::string& name) const;
  [[nodiscard]] const std::vector<std::string>& positionals() const { return m_positionals; }

  void add(const std::string& name, const std::string& value) { m_values[name].push_back(value); }
  void add_positional(const std::string& value) { m_positionals.push_back(value); }

 private:
  std::map<std::string, std::vector<std::string>> m_values;
  std::vector<std::string> m_positionals;
};

}  // namespace kopt::cli
