// What the machine is: GPU, driver, CUDA, clocks, and whether performance
// counters can be read. Used by `kopt env` and recorded with every
// benchmark. A value that cannot be read is std::nullopt, written `unknown`
// with the reason, never guessed.
#pragma once

#include "formats/env.hpp"

namespace kopt::cuda {

// The machine now, as formats/env.hpp types it (to_json writes it).
[[nodiscard]] env_file probe_environment();

}  // namespace kopt::cuda
