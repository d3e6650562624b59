// Included by the CUDA variants of link_cuda, with external linkage
// throughout: a host global, a host function, a __device__ global, a
// __device__ function and a __global__ kernel, each body depending on
// LINK_FACTOR (defined by the includer). Each variant's module keeps its own.
#pragma once

#include <cstdint>

int host_calls = 0;

__device__ float device_factor = LINK_FACTOR;

__device__ float times_factor(float v) { return v * device_factor; }

__global__ void scale_kernel(const float* x, float* y, std::int64_t n, float extra) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = times_factor(x[i]) * extra;
}

void launch_scale(const float* x, float* y, std::int64_t n, float extra, cudaStream_t stream) {
  ++host_calls;
  scale_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(x, y, n, extra);
}
