// A kernel that spills (launch bounds leave 32 registers for 48 live
// accumulators) and one with a dynamically indexed local array (local memory,
// no spill).
#include <cuda_runtime.h>

__global__ void __launch_bounds__(1024, 2) spill_heavy(const float* x, float* y, int n) {
  float acc[48];
#pragma unroll
  for (int j = 0; j < 48; ++j) acc[j] = x[j * 1024 + threadIdx.x];
  for (int i = 0; i < n; ++i) {
    const float v = x[i];
#pragma unroll
    for (int j = 0; j < 48; ++j) acc[j] = acc[j] * acc[(j + 1) % 48] + v;
  }
  float s = 0.f;
#pragma unroll
  for (int j = 0; j < 48; ++j) s += acc[j] * static_cast<float>(j);
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void local_array(const float* x, const int* idx, float* y) {
  float table[32];
  for (int j = 0; j < 32; ++j) table[j] = x[j * 32 + threadIdx.x];
  for (int j = 0; j < 32; ++j) table[idx[j] & 31] += x[threadIdx.x];
  y[threadIdx.x] = table[idx[threadIdx.x] & 31];
}
