#include "kopt/cli/parser.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <deque>
#include <utility>

#include "core/json_io.hpp"
#include "core/option_values.hpp"

namespace kopt::cli {
namespace {

bool repeatable(const option_spec& option) {
  return option.m_kind == option_spec::repeated || option.m_kind == option_spec::repeated_required;
}

bool required(const option_spec& option) {
  return option.m_kind == option_spec::required || option.m_kind == option_spec::repeated_required;
}

bool is_option(const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; }

// "--name=value" -> "--name"
std::string option_name(const std::string& arg) { return arg.substr(0, arg.find('=')); }

bool names_an_option(const command& cmd, const std::string& arg) {
  if (arg == "--help" || arg == "-h") return true;
  const std::string name = option_name(arg);
  return std::any_of(cmd.m_options.begin(), cmd.m_options.end(),
                     [&](const option_spec& option) { return name == option.m_name; });
}

// One subcommand of the CLI::App: the table row, its options as CLI11 holds
// them, the positionals.
struct subcommand {
  const command* m_command = nullptr;
  CLI::App* m_app = nullptr;
  std::vector<std::pair<const option_spec*, CLI::Option*>> m_options;
  std::vector<std::string> m_positionals;
};

// The table row's options, checked with the table's own messages (CLI11
// only splits the command line into them).
arguments arguments_of(const subcommand& sub) {
  const command& cmd = *sub.m_command;
  for (const std::string& extra : sub.m_app->remaining()) {
    if (is_option(extra)) throw usage_error("unknown option " + shorten(option_name(extra)));
    throw usage_error("unexpected argument '" + shorten(extra) + "'");
  }
  arguments parsed;
  for (const auto& [option, held] : sub.m_options) {
    const std::string name = option->m_name;
    if (held->count() > 1 && !repeatable(*option)) throw usage_error(name + " given twice");
    for (const std::string& value : held->results()) {
      if (option->m_kind == option_spec::flag) {
        if (value != "true") throw usage_error(name + " takes no value");
        parsed.add(name, "");
      } else {
        if (value.empty()) throw usage_error(name + " needs a non-empty value");
        // CLI11 takes the next argument as the value whatever it is; one of
        // this command's options (`--manifest --json`) is a missing value.
        if (names_an_option(cmd, value)) throw usage_error(name + " needs a value (" + option->m_value + ")");
        parsed.add(name, value);
      }
    }
    if (required(*option) && !parsed.has(name)) {
      throw usage_error("missing " + name + " " + option->m_value);
    }
  }
  for (const std::string& positional : sub.m_positionals) parsed.add_positional(positional);
  const int given = static_cast<int>(sub.m_positionals.size());
  const int wanted = cmd.m_positional_count;
  if (wanted >= 0 && given != wanted) {
    throw usage_error(given > wanted ? "unexpected argument '" + shorten(sub.m_positionals[wanted]) + "'"
                                     : "expected " + std::to_string(wanted) + " arguments, got " +
                                           std::to_string(given));
  }
  return parsed;
}

}  // namespace

const command* command_named_in(const std::vector<std::string>& argv) {
  if (argv.empty() || is_option(argv.front())) return nullptr;
  const command* cmd = find_command(argv.front());
  if (cmd == nullptr) throw usage_error("unknown command '" + shorten(argv.front()) + "'");
  return cmd;
}

command_line parse_command_line(const std::vector<std::string>& argv) {
  (void)command_named_in(argv);
  if (const auto error = empty_value_error(argv, "--")) throw usage_error(*error);

  CLI::App app("KernelOpt's post-processor", "kopt");
  app.set_version_flag("--version", "");
  app.allow_extras();
  app.require_subcommand(0, 1);  // a second command name is an argument of the first
  std::deque<subcommand> subs;
  for (const command& cmd : command_table()) {
    subcommand& sub = subs.emplace_back();
    sub.m_command = &cmd;
    sub.m_app = app.add_subcommand(cmd.m_name, cmd.m_summary);
    sub.m_app->allow_extras();  // unknown options: named by arguments_of
    for (const option_spec& option : cmd.m_options) {
      CLI::Option* held = option.m_kind == option_spec::flag
                              ? sub.m_app->add_flag(option.m_name, option.m_help)
                              : sub.m_app->add_option(option.m_name, option.m_help)
                                    ->type_name(option.m_value)
                                    ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
      sub.m_options.emplace_back(&option, held);
    }
    if (cmd.m_positional_count != 0) sub.m_app->add_option("ARGS", sub.m_positionals, cmd.m_positionals);
  }

  std::vector<std::string> reversed(argv.rbegin(), argv.rend());
  command_line line;
  const auto parsed_subcommand = [&]() -> const subcommand* {
    for (const subcommand& sub : subs) {
      if (sub.m_app->parsed()) return &sub;
    }
    return nullptr;
  };
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    const subcommand* sub = parsed_subcommand();
    line.m_request = command_line::help;
    line.m_command = sub != nullptr ? sub->m_command : nullptr;
    return line;
  } catch (const CLI::CallForVersion&) {
    line.m_request = command_line::version;
    return line;
  } catch (const CLI::ArgumentMismatch& error) {
    // A value missing at the end or before another option. CLI11 says
    // "--manifest: 1 required FILE missing"; the table's words are kept.
    const std::string text = error.what();
    const std::size_t colon = text.find(": ");
    const std::size_t required_at = text.find(" required ");
    if (colon != std::string::npos && required_at != std::string::npos && text.compare(0, 2, "--") == 0) {
      const std::string type = text.substr(required_at + 10, text.rfind(" missing") - required_at - 10);
      throw usage_error(text.substr(0, colon) + " needs a value (" + type + ")");
    }
    throw usage_error(text);
  } catch (const CLI::ParseError& error) {
    throw usage_error(error.what());
  }
  for (const std::string& extra : app.remaining()) {
    throw usage_error(is_option(extra) ? "unknown option " + shorten(option_name(extra))
                                       : "unexpected argument '" + shorten(extra) + "'");
  }
  const subcommand* sub = parsed_subcommand();
  if (sub == nullptr) throw usage_error("no command given");
  line.m_command = sub->m_command;
  line.m_arguments = arguments_of(*sub);
  return line;
}

arguments parse_arguments(const command& cmd, const std::vector<std::string>& argv) {
  std::vector<std::string> line = {cmd.m_name};
  line.insert(line.end(), argv.begin(), argv.end());
  command_line parsed = parse_command_line(line);
  if (parsed.m_request != command_line::run) throw usage_error("--help and --version do not run a command");
  return std::move(parsed.m_arguments);
}

}  // namespace kopt::cli
