// static_ablate v0 (tests/static, docs/ablation.md): a row sum whose
// warp_shuffle METHOD is a switch. With STATIC_ABL_SHFL 1 the warp reduces
// with __shfl_xor_sync (SASS SHFL); with 0, through shared memory (no SHFL):
// the ablated build's SASS must lose the signature.
#include <cstdint>

#include <cuda_runtime.h>

namespace {

__global__ void static_ablate_kernel(const float* x, float* y, std::int64_t cols) {
  const std::int64_t row = blockIdx.x;
  float sum = 0.0f;
  for (std::int64_t c = threadIdx.x; c < cols; c += 32) sum += x[row * cols + c];
#if STATIC_ABL_SHFL
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (threadIdx.x == 0) y[row] = sum;
#else
  __shared__ float partial[32];
  partial[threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int i = 0; i < 32; ++i) total += partial[i];
    y[row] = total;
  }
#endif
}

}  // namespace

void static_ablate_v0(const float* x, float* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  static_ablate_kernel<<<static_cast<unsigned>(rows), 32, 0, stream>>>(x, y, cols);
}
