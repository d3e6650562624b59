#include "kopt/cli/cli_args.hpp"

#include "core/json_io.hpp"

namespace kopt::cli {
namespace {

const option_spec* find_option(const std::vector<option_spec>& options, const std::string& name) {
  for (const option_spec& option : options) {
    if (name == option.m_name) return &option;
  }
  return nullptr;
}

bool repeatable(const option_spec& option) {
  return option.m_kind == option_spec::repeated || option.m_kind == option_spec::repeated_required;
}

}  // namespace

const std::string& arguments::value(const std::string& name) const {
  const auto it = m_values.find(name);
  if (it == m_values.end()) throw usage_error("missing " + name);
  return it->second.front();
}

std::optional<std::string> arguments::optional_value(const std::string& name) const {
  const auto it = m_values.find(name);
  if (it == m_values.end()) return std::nullopt;
  return it->second.front();
}

std::vector<std::string> arguments::values(const std::string& name) const {
  const auto it = m_values.find(name);
  return it == m_values.end() ? std::vector<std::string>{} : it->second;
}

std::vector<std::string> help_rewritten(const std::vector<std::string>& argv) {
  if (argv.empty() || argv.front().empty() || argv.front()[0] == '-') return argv;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == "--help" || argv[i] == "-h") return {"help", argv.front()};
  }
  return argv;
}

arguments parse_arguments(const std::vector<option_spec>& options, int positionals,
                          const std::vector<std::string>& argv) {
  arguments parsed;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      parsed.add_positional(arg);
      continue;
    }
    const std::size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    const option_spec* option = find_option(options, name);
    if (option == nullptr) throw usage_error("unknown option " + shorten(name));
    if (parsed.has(name) && !repeatable(*option)) throw usage_error(name + " given twice");
    if (option->m_kind == option_spec::flag) {
      if (equals != std::string::npos) throw usage_error(name + " takes no value");
      parsed.add(name, "");
      continue;
    }
    if (equals != std::string::npos) {
      parsed.add(name, arg.substr(equals + 1));
    } else if (i + 1 < argv.size()) {
      parsed.add(name, argv[++i]);
    } else {
      throw usage_error(name + " needs a value (" + option->m_value + ")");
    }
    if (parsed.values(name).back().empty()) throw usage_error(name + " needs a non-empty value");
  }
  for (const option_spec& option : options) {
    const bool needed =
        option.m_kind == option_spec::required || option.m_kind == option_spec::repeated_required;
    if (needed && !parsed.has(option.m_name)) {
      throw usage_error(std::string("missing ") + option.m_name + " " + option.m_value);
    }
  }
  const int given = static_cast<int>(parsed.positionals().size());
  if (positionals >= 0 && given != positionals) {
    throw usage_error(given > positionals ? "unexpected argument '" + shorten(parsed.positionals()[positionals]) + "'"
                                          : "expected " + std::to_string(positionals) + " arguments, got " +
                                                std::to_string(given));
  }
  return parsed;
}

}  // namespace kopt::cli
