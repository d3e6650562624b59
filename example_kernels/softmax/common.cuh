// Device helpers shared by the softmax variants (f32 and bf16).
//
// Everything here has internal linkage (anonymous namespace): every variant
// of a kernel links into one executable, and each .cu that includes this
// header gets its own copy.
//
// NOTE: all arithmetic is in f32 whatever the storage type; bf16 is only a
// storage format, converted on load and rounded (to nearest even) on store.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace {

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

// One block per row, looping when rows exceed what one launch can hold
// (gridDim.x <= 2^31 - 1), so any row count is covered.
inline unsigned grid_for_rows(std::int64_t rows) {
  constexpr std::int64_t kMaxGridX = 2147483647;
  return static_cast<unsigned>(std::min(rows, kMaxGridX));
}

inline bool aligned_16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Butterfly reductions: every lane ends with the warp's result, so no
// broadcast is needed afterwards. REQUIRES: all 32 lanes active.
__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// Block-wide reductions with one __syncthreads: each warp reduces, lane 0
// publishes the partial, then every warp reduces the <= 32 partials itself
// (cheaper than a second barrier for a broadcast).
// REQUIRES: blockDim.x a multiple of 32, <= 1024; `partials` holds 32 floats
// and is not written again until every thread has passed another barrier.
__device__ __forceinline__ float block_max(float v, float* partials) {
  const int lane = threadIdx.x & 31;
  v = warp_max(v);
  if (lane == 0) partials[threadIdx.x >> 5] = v;
  __syncthreads();
  v = lane < static_cast<int>(blockDim.x >> 5) ? partials[lane] : -INFINITY;
  return warp_max(v);
}

__device__ __forceinline__ float block_sum(float v, float* partials) {
  const int lane = threadIdx.x & 31;
  v = warp_sum(v);
  if (lane == 0) partials[threadIdx.x >> 5] = v;
  __syncthreads();
  v = lane < static_cast<int>(blockDim.x >> 5) ? partials[lane] : 0.0f;
  return warp_sum(v);
}

}  // namespace
