// Relocatable device code: the kernel calls a __device__ function defined in
// rdc_helper.cu, so the module needs a device link.
#include <cstdint>

extern __device__ float rdc_times_three(float v);

namespace {
__global__ void rdc_kernel(const float* x, float* y, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = rdc_times_three(x[i]);
}
}  // namespace

void link_cuda_rdc(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  rdc_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(x, y, n);
}
