// v3 fallback, for what the register-resident kernels cannot take: rows
// longer than a cluster of 8 CTAs holds (> 262144 columns), and x and y
// misaligned relative to each other (no common 16-byte boundary, so the
// accesses are scalar). Two passes over the row: an online max and
// rescaled sum (Milakov & Gimelshein, 2018), merged across the cluster
// through distributed shared memory, then a second read of x that writes y.
// 2 reads + 1 write; the second read mostly hits L2 (a cluster's row, 1 MB
// per 262144 f32 columns, was read just before).
#pragma once

#include <cooperative_groups.h>

#include "v3_common.cuh"

namespace {
namespace v3 {

constexpr int kStreamMaxThreads = 1024;

// m: running max; s: sum of 2^((x - m) * log2e) over what was seen. The
// empty state is {-inf, 0}.
struct online_state {
  float m;
  float s;
};

// REQUIRES: m_new >= st.m and m_new finite. A state still at -inf rescales
// to 0 * 2^-inf = 0.
__device__ __forceinline__ float rescaled_sum(online_state st, float m_new) {
  return st.s * exp2_approx((st.m - m_new) * kLog2e);
}

__device__ __forceinline__ online_state online_merge(online_state a, online_state b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return {m, 0.0f};  // both empty: -inf - -inf would be NaN
  return {m, rescaled_sum(a, m) + rescaled_sum(b, m)};
}

template <int kCount>
__device__ __forceinline__ online_state online_add(online_state st, const float (&v)[kCount]) {
  float m = v[0];
#pragma unroll
  for (int j = 1; j < kCount; ++j) m = fmaxf(m, v[j]);
  if (m == -INFINITY) return st;  // all masked: adds nothing
  m = fmaxf(m, st.m);
  const float m_log2e = m * kLog2e;
  float s = rescaled_sum(st, m);
#pragma unroll
  for (int j = 0; j < kCount; ++j) s += exp2_approx(fmaf(v[j], kLog2e, -m_log2e));
  return {m, s};
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

// partial_m, partial_s: [2][32] floats each, alternated by row, so that a
// row's partials are rewritten only two barriers after they were read.
template <typename T, int kCluster, access kAccess>
__device__ __forceinline__ void stream_rows(const T* __restrict__ x, T* __restrict__ y,
                                            std::int64_t rows, std::int64_t cols,
                                            float (*partial_m)[32], float (*partial_s)[32]) {
  using io = vec_io<T>;
  constexpr int kVec = io::kVec;
  static_assert(kAccess != access::aligned, "aligned rows are a case of shifted ones here");
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid & 31;
  const int warps = static_cast<int>(blockDim.x) >> 5;
  int rank = 0;
  if constexpr (kCluster > 1) rank = static_cast<int>(cooperative_groups::this_cluster().block_rank());
  const std::int64_t stride = static_cast<std::int64_t>(kCluster) * blockDim.x;
  const bool edge_owner = rank == 0;  // head on threads [0, head), tail on [kVec, kVec + tail)
  int parity = 0;

  for (std::int64_t row = blockIdx.x / kCluster; row < rows; row += gridDim.x / kCluster) {
    const T* xr = x + row * cols;
    T* yr = y + row * cols;
    const auto s = split_row<T, kAccess>(xr, cols);
    const std::int64_t first = static_cast<std::int64_t>(rank) * blockDim.x + tid;
    const int tail_index = tid - kVec;
    const bool has_head = edge_owner && tid < s.head;
    const bool has_tail = edge_owner && tail_index >= 0 && tail_index < s.tail;

    online_state st{-INFINITY, 0.0f};
    if (has_head || has_tail) {
      const float e[1] = {io::load1(has_head ? xr + tid : xr + s.head + s.body * kVec + tail_index)};
      st = online_add(st, e);
    }
#pragma unroll 4
    for (std::int64_t vec = first; vec < s.body; vec += stride) {
      float v[kVec];
      load_vec<T, kAccess>(xr + s.head + vec * kVec, v);
      st = online_add(st, v);
    }

    st = warp_merge(st);
    if (lane == 0) {
      partial_m[parity][tid >> 5] = st.m;
      partial_s[parity][tid >> 5] = st.s;
    }
    st = {-INFINITY, 0.0f};
    if constexpr (kCluster == 1) {
      __syncthreads();
      if (lane < warps) st = {partial_m[parity][lane], partial_s[parity][lane]};
    } else {
      cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
      cluster.sync();
      if (lane < warps) {
#pragma unroll
        for (int r = 0; r < kCluster; ++r)
          st = online_merge(st, {*cluster.map_shared_rank(&partial_m[parity][lane], r),
                                 *cluster.map_shared_rank(&partial_s[parity][lane], r)});
      }
    }
    st = warp_merge(st);
    const float m_log2e = st.m * kLog2e;
    const float inv_sum = 1.0f / st.s;
    parity ^= 1;

    if (has_head || has_tail) {
      const std::int64_t c = has_head ? tid : s.head + s.body * kVec + tail_index;
      io::store1(yr + c, exp2_approx(fmaf(io::load1(xr + c), kLog2e, -m_log2e)) * inv_sum);
    }
#pragma unroll 4
    for (std::int64_t vec = first; vec < s.body; vec += stride) {
      float v[kVec];
      load_vec<T, kAccess>(xr + s.head + vec * kVec, v);
#pragma unroll
      for (int j = 0; j < kVec; ++j) v[j] = exp2_approx(fmaf(v[j], kLog2e, -m_log2e)) * inv_sum;
      store_vec<T, kAccess>(yr + s.head + vec * kVec, v);
    }
  }
  if constexpr (kCluster > 1) cooperative_groups::this_cluster().sync();
}

template <typename T, int kCluster, access kAccess>
__global__ void __launch_bounds__(kStreamMaxThreads)
    stream_rows_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, std::int64_t cols) {
  __shared__ float partial_m[2][32];
  __shared__ float partial_s[2][32];
  stream_rows<T, kCluster, kAccess>(x, y, rows, cols, partial_m, partial_s);
}

}  // namespace v3
}  // namespace
