// The kernelopt.env document of this machine (docs/formats.md): driver,
// runtime, devices, whether counters are readable. Built without CUDA,
// every CUDA-side value is unknown for that one reason.
#pragma once

#include "core/json_io.hpp"

namespace kopt {

[[nodiscard]] json env_document();

}  // namespace kopt
