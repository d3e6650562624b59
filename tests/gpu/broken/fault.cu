// broken_scale "fault": computes y = 2 * x correctly, and thread 0 of block 0
// also stores through the wild pointer 0x10 (the never-mapped first page),
// so the kernel dies with cudaErrorIllegalAddress ("an illegal memory access
// was encountered"), reported at the harness's synchronize after the
// launch; the launch itself succeeds. The error is sticky: the CUDA context
// is unusable afterwards, so nothing after it in the same process can run.
// The pointer is a kernel argument so the compiler cannot drop the store.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, std::int64_t n,
                             float* wild) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    y[i] = 2.0f * x[i];
  if (blockIdx.x == 0 && threadIdx.x == 0) *wild = 1.0f;
}

}  // namespace

void broken_scale_fault(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const std::int64_t blocks = (n + 255) / 256;
  float* const wild = reinterpret_cast<float*>(std::uintptr_t{0x10});
  scale_kernel<<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(
      x, y, n, wild);
}
