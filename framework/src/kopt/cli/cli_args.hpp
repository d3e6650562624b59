// Command-line options of one subcommand: `--name VALUE` or `--name=VALUE`,
// switches, repeatable options, positionals. Declared in the command table.
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

// `kopt COMMAND ... --help` (or `-h`) anywhere after the command name: the
// arguments of `kopt help COMMAND`, which answers it with exit code 0. Any
// other argv (no help asked, or `kopt --help [COMMAND]`, which dispatch
// already reads as `kopt help`) comes back unchanged.
[[nodiscard]] std::vector<std::string> help_rewritten(const std::vector<std::string>& argv);

// Throws usage_error naming the offending argument. `positionals` is the
// number of positional arguments the subcommand takes, -1 for any number.
[[nodiscard]] arguments parse_arguments(const std::vector<option_spec>& options, int positionals,
                                        const std::vector<std::string>& argv);

}  // namespace kopt::cli
