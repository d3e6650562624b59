// softmax v0 (f32): three passes, shared-memory tree reductions; see three_pass.cuh.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "three_pass.cuh"

void softmax_v0(const float* x, float* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  launch_three_pass(x, y, rows, cols, stream);
}
