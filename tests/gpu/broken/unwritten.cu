// broken_scale "unwritten": computes y = 2 * x correctly but only for the
// first n - ceil(n / 8) elements; the last ceil(n / 8) elements are never
// written and keep the harness's poison. Expected diagnosis: unwritten =
// ceil(n / 8) (these are also the only mismatches / non-finite values, first
// at flat index n - ceil(n / 8)), canaries intact.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y,
                             std::int64_t count) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    y[i] = 2.0f * x[i];
}

}  // namespace

void broken_scale_unwritten(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  const std::int64_t count = n - (n + 7) / 8;
  if (count <= 0) return;
  const std::int64_t blocks = (count + 255) / 256;
  scale_kernel<<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(
      x, y, count);
}
