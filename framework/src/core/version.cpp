#include "core/version.hpp"

#ifndef KOPT_VERSION
#error "KOPT_VERSION (the CMake project version) must be defined"
#endif

namespace kopt {

const char* kernelopt_version() { return KOPT_VERSION; }

}  // namespace kopt
