// A header shared by two variants, defining two kernels: one reduces with
// warp shuffles, one does not. Neither is variant_a's own kernel.
#pragma once
#include <cuda_runtime.h>

__global__ void helper_shuffle(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  if (i < n) out[i] = v;
}

__global__ void helper_scale(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
