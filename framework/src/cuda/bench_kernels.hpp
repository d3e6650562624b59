// The two helper kernels of the benchmark timer (bench_kernels.cu). Their
// names start with "kopt_bench_" so that a profile or a trace shows at a
// glance what is harness; the CUPTI clock excludes them by correlation id.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace kopt::cuda {

// Reads `bytes` of `buffer` (16-byte aligned, contents zero) through L2, so
// that every line the previous sample left in L2 is evicted and L2 holds
// only clean lines of `buffer`. Never writes `sink` (it writes only if the
// XOR of the buffer equals a value a zeroed buffer cannot produce; the
// compiler cannot know that, so the loads stay).
void launch_l2_flush(const void* buffer, std::size_t bytes, unsigned* sink, int sm_count, cudaStream_t stream);

// One thread that spins until *release != 0 (host-mapped memory), or until
// `timeout_ns` of %globaltimer passed; then sets *timed_out = 1 and exits.
void launch_spin(const volatile int* release, int* timed_out, std::uint64_t timeout_ns, cudaStream_t stream);

}  // namespace kopt::cuda
