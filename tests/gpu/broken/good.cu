// broken_scale "good": y = 2 * x, correct for every n; the control that the
// broken variants are diagnosed against.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    y[i] = 2.0f * x[i];
}

}  // namespace

void broken_scale_good(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const std::int64_t blocks = (n + 255) / 256;
  scale_kernel<<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(x, y, n);
}
