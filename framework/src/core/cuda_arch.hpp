// Whether device code built for some CUDA architectures runs on a device.
// The architectures are CMake's CUDA_ARCHITECTURES entries, as the generated
// code records them for each implementation: "80" (SASS and PTX for
// sm_80), "90a-real" (SASS only), "90-virtual" (PTX only), "100f".
#pragma once

#include <string>

namespace kopt {

// Empty when code built for `archs` (';'-separated entries; empty: unknown,
// assumed to run) can run on a device of compute capability major.minor,
// else why not ("built for 90a, the device is 8.0"). SASS runs on its major
// at the same or a later minor; PTX is compiled for any later device;
// arch-specific code (90a) runs on exactly its architecture; family code
// (100f) on its major. An entry that is not an architecture never runs.
[[nodiscard]] std::string cuda_arch_mismatch(const std::string& archs, int major, int minor);

}  // namespace kopt
