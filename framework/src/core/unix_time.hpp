// Wall-clock time as integer nanoseconds since the Unix epoch: the one clock
// that results written by different processes (benchmark windows, GPU
// claims) can be compared on.
#pragma once

#include <chrono>
#include <cstdint>

namespace kopt {

[[nodiscard]] inline std::int64_t unix_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace kopt
