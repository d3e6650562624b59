#include <algorithm>
#include <ostream>

#include "kopt/cli/commands.hpp"

namespace kopt::cli {

int cmd_help(const arguments& args, std::ostream& out, std::ostream& err) {
  if (args.positionals().size() > 1) throw usage_error("help takes at most one command");
  if (args.positionals().empty()) {
    out << "usage: kopt COMMAND [OPTIONS]\n\ncommands:\n";
    std::size_t width = 10;
    for (const command& cmd : command_table()) width = std::max(width, std::string(cmd.m_name).size() + 2);
    for (const command& cmd : command_table()) {
      std::string name = cmd.m_name;
      name.resize(width, ' ');
      out << "  " << name << cmd.m_summary << "\n";
    }
    out << "\nexit codes: " << k_exit_ok << " ok / ACCEPT / no SLOWER / continue, " << k_exit_fail
        << " REJECT / SLOWER / TARGET no longer met / stop, " << k_exit_usage << " usage or input error, "
        << k_exit_skipped << " skipped\n"
        << "run 'kopt help COMMAND' (or 'kopt COMMAND --help') for a command's options,\n"
        << "'kopt --version' for the version; docs/loop.md has the loop.\n";
    return k_exit_ok;
  }
  const command* cmd = find_command(args.positionals().front());
  if (cmd == nullptr) {
    err << "kopt help: unknown command '" << args.positionals().front() << "'\n";
    return k_exit_usage;
  }
  out << "usage: " << usage_line(*cmd) << "\n\n" << cmd->m_summary << "\n";
  if (!cmd->m_options.empty()) out << "\noptions:\n";
  for (const option_spec& option : cmd->m_options) {
    std::string text =
        std::string(option.m_name) + (*option.m_value ? std::string(" ") + option.m_value : "");
    text += std::string(text.size() < 22 ? 22 - text.size() : 2, ' ');
    out << "  " << text << option.m_help << "\n";
  }
  out << "\nexit codes: " << cmd->m_exit_codes << "\n";
  return k_exit_ok;
}

}  // namespace kopt::cli
