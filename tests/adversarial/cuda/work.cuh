// The adversarial suite's CUDA kernel: y[i] = f(x[i]) with f a chain of 256
// dependent multiply-adds (compute-bound: ~8.6 GFLOP at n = 2^24, far more
// time than copying or skipping the result). Each variant includes this
// header; the kernels are static so every variant has its own.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace adv {

constexpr int k_steps = 256;

__device__ __forceinline__ float f(float x) {
  float a = x;
#pragma unroll 16
  for (int s = 0; s < k_steps; ++s) a = fmaf(a, 0.99f, 0.01f * x);
  return a;
}

static __global__ void compute_kernel(const float* x, float* y, std::int64_t begin, std::int64_t end) {
  for (std::int64_t i = begin + blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < end;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    y[i] = f(x[i]);
  }
}

inline void compute(const float* x, float* y, std::int64_t begin, std::int64_t end, cudaStream_t stream) {
  if (end <= begin) return;
  const std::int64_t n = end - begin;
  const int blocks = static_cast<int>(std::min<std::int64_t>((n + 255) / 256, 132 * 16));
  compute_kernel<<<blocks, 256, 0, stream>>>(x, y, begin, end);
}

}  // namespace adv
