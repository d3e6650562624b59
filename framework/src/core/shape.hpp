// A declared shape as text ("M=4096,N=1024", the manifest's and the
// benchmark names' form) and its dimensions.
#pragma once

#include <map>
#include <string>

namespace kopt {

// A shape's dimensions: "M=4096,N=1024" -> {M: 4096, N: 1024}. Parts that
// are not "name=<finite number>" are left out (the configure-time check in
// cmake/kernelopt/Parse.cmake rejects them in declared shapes).
[[nodiscard]] std::map<std::string, double> shape_dims(const std::string& shape);

}  // namespace kopt
