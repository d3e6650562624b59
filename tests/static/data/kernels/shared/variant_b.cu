// Claims warp_shuffle and its own kernel, a template in an anonymous
// namespace, shuffles through an inlined device function.
#include "common.cuh"

namespace {

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

template <int Scale>
__global__ void __launch_bounds__(256) scaled_warp_sum(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = warp_sum(i < n ? in[i] : 0.0f);
  if (i < n) out[i] = Scale * v;
}

}  // namespace

void variant_b(const float* in, float* out, int n, cudaStream_t stream) {
  scaled_warp_sum<2><<<(n + 255) / 256, 256, 0, stream>>>(in, out, n);
}
