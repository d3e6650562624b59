// Timing of host-backend implementations: steady clock around one call,
// the last-level cache flushed before each sample.
#pragma once

#include <memory>

#include "bench/engine.hpp"

namespace kopt::bench {

// Bytes written before every sample to evict the previous sample's data:
// twice the largest cache of cpu0 (/sys/devices/system/cpu/cpu0/cache,
// else sysconf), at least 8 MiB; 64 MiB when no cache size can be read.
[[nodiscard]] std::size_t host_flush_bytes();

[[nodiscard]] std::unique_ptr<timing_engine> make_host_engine();

}  // namespace kopt::bench
