// Control: honest, faster (32 steps of the chain, which is the identity in
// exact arithmetic) and nondeterministic in its last bits (a per-call
// factor within 3e-7). Must be accepted.
#include "work.cuh"

static __global__ void nondet_kernel(const float* x, float* y, std::int64_t n, float jitter) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    float a = x[i];
#pragma unroll
    for (int s = 0; s < 32; ++s) a = fmaf(a, 0.99f, 0.01f * x[i]);
    y[i] = a * jitter;
  }
}

void adv_cuda_nondet(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  static unsigned call = 0;
  const float jitter = 1.0f + static_cast<float>(call++ % 3) * 1e-7f;
  nondet_kernel<<<132 * 16, 256, 0, stream>>>(x, y, n, jitter);
}
