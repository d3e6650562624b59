// broken_scale "oob": computes y[0, n) = 2 * x correctly, then writes 4 more
// floats (16 bytes) at y[n, n + 4), just past the end of its output: small
// enough to land in the harness's guard region, never a fault (x is only
// read in bounds). The value written, 1e30f, matches no poison or canary
// pattern. Expected diagnosis: values all correct, canary "overwritten after
// output", no CUDA error.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr std::int64_t kOverrun = 4;

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       i < n + kOverrun; i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    y[i] = i < n ? 2.0f * x[i] : 1e30f;
}

}  // namespace

void broken_scale_oob(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const std::int64_t blocks = (n + kOverrun + 255) / 256;
  scale_kernel<<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(x, y, n);
}
