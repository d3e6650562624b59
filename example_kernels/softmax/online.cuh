// v1: online softmax (Milakov & Gimelshein, 2018). Each thread keeps a running
// (max, sum of exp(x - max)) over its strided elements and rescales the sum
// whenever the max grows, so max and sum come out of one read of the row.
// The per-thread states are merged with warp shuffles, then across warps
// through 2 x 32 floats of shared memory; a second pass normalizes.
// Traffic per element: 2 reads + 1 write.
//
// Also the path v2 takes for rows longer than it can hold in registers.
#pragma once

#include "common.cuh"

namespace {

// m: running max, s: sum of exp(x - m) over the elements seen.
struct online_state {
  float m;
  float s;
};

__device__ __forceinline__ void online_update(online_state& st, float v) {
  if (v > st.m) {
    // New max: rescale what was summed so far. First element: m = -inf,
    // expf(-inf) = 0, so s becomes 1.
    st.s = st.s * expf(st.m - v) + 1.0f;
    st.m = v;
  } else if (v != -INFINITY) {
    // Skipping -inf (a masked logit) avoids expf(-inf - -inf) = NaN while
    // the state is still empty; it would add 0 otherwise.
    st.s += expf(v - st.m);
  }
}

__device__ __forceinline__ online_state online_merge(online_state a, online_state b) {
  const float m = fmaxf(a.m, b.m);
  // A state that has seen only -inf contributes 0 (and -inf - -inf is NaN).
  const float sa = a.m == -INFINITY ? 0.0f : a.s * expf(a.m - m);
  const float sb = b.m == -INFINITY ? 0.0f : b.s * expf(b.m - m);
  return {m, sa + sb};
}

__device__ __forceinline__ online_state warp_merge(online_state st) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    const online_state other{__shfl_xor_sync(0xffffffffu, st.m, offset),
                             __shfl_xor_sync(0xffffffffu, st.s, offset)};
    st = online_merge(st, other);
  }
  return st;
}

template <typename T, int kThreads>
__global__ void __launch_bounds__(kThreads)
    softmax_online_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows,
                          std::int64_t cols) {
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, one block");
  constexpr int kWarps = kThreads / 32;
  __shared__ float partial_m[kWarps];
  __shared__ float partial_s[kWarps];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;

  for (std::int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const T* xr = x + row * cols;
    T* yr = y + row * cols;

    online_state st{-INFINITY, 0.0f};
    // Unrolled so that several independent loads are in flight before the
    // (serial) state updates consume them.
#pragma unroll 4
    for (std::int64_t c = threadIdx.x; c < cols; c += kThreads) online_update(st, to_float(xr[c]));

    st = warp_merge(st);
    if (lane == 0) {
      partial_m[warp] = st.m;
      partial_s[warp] = st.s;
    }
    __syncthreads();
    st = lane < kWarps ? online_state{partial_m[lane], partial_s[lane]}
                       : online_state{-INFINITY, 0.0f};
    st = warp_merge(st);

    const float inv_sum = 1.0f / st.s;
#pragma unroll 4
    for (std::int64_t c = threadIdx.x; c < cols; c += kThreads)
      yr[c] = from_float<T>(expf(to_float(xr[c]) - st.m) * inv_sum);

    // The next row rewrites the partials; every warp must have read them.
    __syncthreads();
  }
}

template <typename T>
void launch_online(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;  // nothing to write; a 0-block grid is a launch error
  // Long rows (vocabulary-sized) get 4x the threads: fewer serial steps per
  // thread and more loads in flight when there are few rows per SM.
  if (cols >= 16384) {
    softmax_online_kernel<T, 1024><<<grid_for_rows(rows), 1024, 0, stream>>>(x, y, rows, cols);
  } else {
    softmax_online_kernel<T, 256><<<grid_for_rows(rows), 256, 0, stream>>>(x, y, rows, cols);
  }
}

}  // namespace
