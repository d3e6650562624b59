// kopt's command line, read with CLI11: one CLI::App, one subcommand per
// row of the command table with the options that row declares, so that
// adding a command is one cmd_<name>.cpp and one table row.
#pragma once

#include <string>
#include <vector>

#include "kopt/cli/commands.hpp"

namespace kopt::cli {

struct command_line {
  enum request_t { run, help, version };
  request_t m_request = run;
  // run: the command to run; help: the command asked about (nullptr: kopt's
  // own help, `kopt --help`).
  const command* m_command = nullptr;
  arguments m_arguments;
};

// The command named first in argv (nullptr when argv starts with an option).
// Throws usage_error "unknown command 'NAME'" when the first word is no command.
[[nodiscard]] const command* command_named_in(const std::vector<std::string>& argv);

// Parses argv (without the program name). `--help` / `-h` anywhere is a
// help request (for the command when one is named), `--version` before the
// command a version request. Throws usage_error naming the offending
// argument: an unknown option or command, a missing or empty value, an
// option given twice, a missing required option, a wrong number of
// arguments.
[[nodiscard]] command_line parse_command_line(const std::vector<std::string>& argv);

// The arguments of `cmd` (argv without the command name), as `kopt <cmd>
// ARGV...` would read them; throws usage_error also on --help and --version.
[[nodiscard]] arguments parse_arguments(const command& cmd, const std::vector<std::string>& argv);

}  // namespace kopt::cli
