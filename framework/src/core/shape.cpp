#include "core/shape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace kopt {

shape shape::parse(std::string text) {
  shape s;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    const std::size_t equals = part.find('=');
    if (equals != std::string::npos) {
      char* end = nullptr;
      const std::string number = part.substr(equals + 1);
      const double value = std::strtod(number.c_str(), &end);
      if (end != number.c_str() && *end == '\0' && std::isfinite(value)) {
        s.m_dims.emplace_back(part.substr(0, equals), value);
      }
    }
    start = comma + 1;
  }
  s.m_text = std::move(text);
  return s;
}

std::map<std::string, double> shape::values() const {
  std::map<std::string, double> values;
  for (const auto& [name, value] : m_dims) values[name] = value;
  return values;
}

}  // namespace kopt
