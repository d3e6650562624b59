// softmax_bf16 v4: a family (docs/sweeps.md) over v1's online kernel
// (online.cuh): the block size is a compile-time parameter of each point
// (kopt::params::THREADS) instead of v1's fixed rule (256 threads, 1024 for
// rows of 16384 columns or more). The sweep times every block size on every
// declared shape; the dispatch serves each shape with its fastest point.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include <kernelopt_params.hpp>

#include "online.cuh"

void softmax_bf16_v4(const __nv_bfloat16* x, __nv_bfloat16* y, std::int64_t rows, std::int64_t cols,
                     cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;  // nothing to write; a 0-block grid is a launch error
  constexpr int kThreads = static_cast<int>(kopt::params::THREADS);
  softmax_online_kernel<__nv_bfloat16, kThreads><<<grid_for_rows(rows), kThreads, 0, stream>>>(x, y, rows, cols);
}
