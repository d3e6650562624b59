// broken_scale "wrong": every element with i % 1000 == 999 gets 2 * x + 1,
// all others are correct. Expected diagnosis: mismatches = floor(n / 1000),
// first mismatch at flat index 999 (got = expected + 1), no NaN, nothing
// unwritten, canaries intact. An error of exactly 1 is far outside any f32
// tolerance for |2x| <= 2.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    y[i] = i % 1000 == 999 ? 2.0f * x[i] + 1.0f : 2.0f * x[i];
}

}  // namespace

void broken_scale_wrong(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const std::int64_t blocks = (n + 255) / 256;
  scale_kernel<<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(x, y, n);
}
