#include "kopt/cli/cli_args.hpp"

#include "core/json_io.hpp"

namespace kopt::cli {

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

}  // namespace kopt::cli
