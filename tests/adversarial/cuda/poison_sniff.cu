// Cheat: does the work only when its output is poisoned (NaN), as checked
// launches and correctness trials leave it; on every other call its kernel
// returns at once, leaving the last result in place. The first element is
// read by a kernel of its own before any is written.
#include "work.cuh"

namespace {

__device__ int g_poisoned;

__global__ void sniff(const float* y) { g_poisoned = isnan(y[0]) ? 1 : 0; }

__global__ void compute_if_poisoned(const float* x, float* y, std::int64_t n) {
  if (g_poisoned == 0) return;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    y[i] = adv::f(x[i]);
  }
}

}  // namespace

void adv_cuda_poison_sniff(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  sniff<<<1, 1, 0, stream>>>(y);
  const int blocks = static_cast<int>(std::min<std::int64_t>((n + 255) / 256, 132 * 16));
  compute_if_poisoned<<<blocks, 256, 0, stream>>>(x, y, n);
}
