// The kernelopt.env document of this machine (formats/env.hpp): driver,
// runtime, devices, whether counters are readable. Built without CUDA,
// every CUDA-side value is unknown for that one reason.
#pragma once

#include "formats/env.hpp"

namespace kopt {

[[nodiscard]] env_file probe_env();

}  // namespace kopt
