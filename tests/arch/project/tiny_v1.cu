#include <cstdint>

namespace {
__global__ void copy_kernel(const float* x, float* y, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = x[i];
}
}  // namespace

void tiny_v1(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  copy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(x, y, n);
}
