#include "core/option_values.hpp"

namespace kopt {

std::optional<std::string> empty_value_error(const std::vector<std::string>& args, const std::string& prefix) {
  for (const std::string& arg : args) {
    if (arg.size() > prefix.size() + 1 && arg.compare(0, prefix.size(), prefix) == 0 &&
        arg.find('=') == arg.size() - 1) {
      return arg.substr(0, arg.size() - 1) + " needs a non-empty value";
    }
  }
  return std::nullopt;
}

}  // namespace kopt
