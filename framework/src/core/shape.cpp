#include "core/shape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace kopt {

std::map<std::string, double> shape_dims(const std::string& shape) {
  std::map<std::string, double> values;
  std::size_t start = 0;
  while (start < shape.size()) {
    const std::size_t comma = std::min(shape.find(',', start), shape.size());
    const std::string part = shape.substr(start, comma - start);
    const std::size_t equals = part.find('=');
    if (equals != std::string::npos) {
      char* end = nullptr;
      const std::string number = part.substr(equals + 1);
      const double value = std::strtod(number.c_str(), &end);
      if (end != number.c_str() && *end == '\0' && std::isfinite(value)) values[part.substr(0, equals)] = value;
    }
    start = comma + 1;
  }
  return values;
}

}  // namespace kopt
