// Claims warp_shuffle, but launches only helper_scale (common.cuh) and its
// own add_one, neither of which shuffles: helper_shuffle, also in the
// object because common.cuh defines it, must not make the claim pass.
#include "common.cuh"

__global__ void add_one(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1.0f;
}

void variant_a(const float* in, float* out, int n, cudaStream_t stream) {
  helper_scale<<<(n + 255) / 256, 256, 0, stream>>>(in, out, n);
  add_one<<<(n + 255) / 256, 256, 0, stream>>>(out, out, n);
}
