// v3, rows of more than 256 vectors: the row is held in registers by one
// thread block (kCluster = 1) or split across a thread-block cluster of
// kCluster CTAs (sm_90), each thread holding kVecs 128-bit vectors (32
// values). The max and the sum are reduced in each CTA by warp shuffles and
// one block barrier, then across the cluster through distributed shared
// memory and one cluster barrier. x is read once, y written once.
//
// Vector k of thread t in CTA `rank` is vector (k * kCluster + rank) *
// blockDim.x + t of the row's aligned body: each load instruction of a CTA
// covers 16 * blockDim.x contiguous bytes.
//
// Cluster sizes (v3_plan.cuh): f32 rows up to 32768 columns in one CTA of up
// to 1024 threads (as v2), 128256 columns on 4 CTAs x 1024 threads x 32
// values = 131072; bf16 rows in CTAs of <= 512 threads (two per SM), so
// 32000 columns on 2 CTAs and 128256 on 8.
#pragma once

#include <cooperative_groups.h>

#include "v3_common.cuh"

namespace {
namespace v3 {

constexpr int kClusterMaxThreads = 1024;

struct max_op {
  __device__ __forceinline__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct sum_op {
  __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
};

template <typename Op>
__device__ __forceinline__ float warp_reduce(float v, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// Shared memory of one reduction: the warps' partials, and the CTA's result
// that the other CTAs of the cluster read.
struct reduction_smem {
  float warps[32];
  float cta;
};

// Reduces v over every thread of the cluster (the block when kCluster is 1);
// every thread gets the result.
//   kCluster == 1: each warp publishes its partial, one block barrier, every
//     warp reduces the <= 32 partials itself (no second barrier to
//     broadcast).
//   kCluster > 1: the same within the CTA, then thread 0 publishes the CTA's
//     result, one cluster barrier (arrive.release / wait.acquire), and lane
//     r of every warp reads rank r's result from distributed shared memory:
//     one remote load per lane, whatever kCluster (loading every warp's
//     partial of every rank needs kCluster addresses and values live at
//     once, on top of the row: spills at 64 registers).
// REQUIRES: blockDim.x a multiple of 32; `smem` not written again before
// every thread of the cluster has passed another barrier of this kind (the
// kernel alternates two reduction_smem).
template <int kCluster, typename Op>
__device__ __forceinline__ float cluster_reduce(float v, reduction_smem& smem, float identity, Op op) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warps = static_cast<int>(blockDim.x) >> 5;
  v = warp_reduce(v, op);
  if (lane == 0) smem.warps[threadIdx.x >> 5] = v;
  __syncthreads();
  v = warp_reduce(lane < warps ? smem.warps[lane] : identity, op);
  if constexpr (kCluster == 1) {
    return v;
  } else {
    if (threadIdx.x == 0) smem.cta = v;
    cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
    cluster.sync();
    v = lane < kCluster ? *cluster.map_shared_rank(&smem.cta, lane) : identity;
    return warp_reduce(v, op);
  }
}

template <int kCluster>
__device__ __forceinline__ unsigned cluster_rank() {
  if constexpr (kCluster == 1) {
    return 0;
  } else {
    return cooperative_groups::this_cluster().block_rank();
  }
}

// The kernel's body, with its shared memory passed in.
// REQUIRES (checked by the planner): cols / kVec <= kCluster * kVecs *
// blockDim.x; blockDim.x >= 32; access as for group_rows_kernel; launched
// with cluster dimensions (kCluster, 1, 1).
template <typename T, int kVecs, int kCluster, access kAccess>
__device__ __forceinline__ void cluster_rows(const T* __restrict__ x, T* __restrict__ y,
                                             std::int64_t rows, int cols, reduction_smem& max_smem,
                                             reduction_smem& sum_smem) {
  using io = vec_io<T>;
  constexpr int kVec = io::kVec;
  static_assert(kAccess != access::scalar, "scalar access takes the streaming kernel");
  static_assert(kVecs * kVec <= kValuesPerThread, "register budget per thread");
  const int tid = static_cast<int>(threadIdx.x);
  const int threads = static_cast<int>(blockDim.x);
  const int rank = static_cast<int>(cluster_rank<kCluster>());
  // Head (< kVec elements) on threads [0, head), tail on [kVec, kVec + tail)
  // of rank 0: one scalar per thread.
  const bool edge_owner = kAccess == access::shifted && rank == 0;

  for (std::int64_t row = blockIdx.x / kCluster; row < rows; row += gridDim.x / kCluster) {
    const T* xr = x + row * cols;
    T* yr = y + row * cols;
    const auto s = split_row<T, kAccess>(xr, cols);

    float v[kVecs][kVec];
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const int vec = (k * kCluster + rank) * threads + tid;
      if (vec < s.body) {
        load_vec<T, kAccess>(xr + s.head + vec * kVec, v[k]);
      } else {
#pragma unroll
        for (int j = 0; j < kVec; ++j) v[k][j] = -INFINITY;
      }
    }
    float edge = -INFINITY;
    const int tail_index = tid - kVec;
    if (edge_owner) {
      if (tid < s.head) edge = io::load1(xr + tid);
      if (tail_index >= 0 && tail_index < s.tail) edge = io::load1(xr + s.head + s.body * kVec + tail_index);
    }

    float m = edge;
#pragma unroll
    for (int k = 0; k < kVecs; ++k)
#pragma unroll
      for (int j = 0; j < kVec; ++j) m = fmaxf(m, v[k][j]);
    const float max_log2e = cluster_reduce<kCluster>(m, max_smem, -INFINITY, max_op{}) * kLog2e;

    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kVecs; ++k)
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        v[k][j] = exp2_approx(fmaf(v[k][j], kLog2e, -max_log2e));
        sum += v[k][j];
      }
    if constexpr (kAccess == access::shifted) {
      edge = exp2_approx(fmaf(edge, kLog2e, -max_log2e));
      sum += edge;
    }
    const float inv_sum = 1.0f / cluster_reduce<kCluster>(sum, sum_smem, 0.0f, sum_op{});

#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const int vec = (k * kCluster + rank) * threads + tid;
      if (vec < s.body) {
#pragma unroll
        for (int j = 0; j < kVec; ++j) v[k][j] *= inv_sum;
        store_vec<T, kAccess>(yr + s.head + vec * kVec, v[k]);
      }
    }
    if (edge_owner) {
      if (tid < s.head) io::store1(yr + tid, edge * inv_sum);
      if (tail_index >= 0 && tail_index < s.tail) io::store1(yr + s.head + s.body * kVec + tail_index, edge * inv_sum);
    }
    // No barrier before the next row: max_smem is rewritten only after this
    // row's sum barriers, which every thread of the cluster passes after
    // reading it; sum_smem only after the next row's max barriers.
  }
  if constexpr (kCluster > 1) {
    // A CTA's shared memory must outlive the other CTAs' reads of it.
    cooperative_groups::this_cluster().sync();
  }
}

template <typename T, int kVecs, int kCluster, access kAccess>
__global__ void __launch_bounds__(kClusterMaxThreads, 1)
    cluster_rows_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, int cols) {
  __shared__ reduction_smem max_smem;
  __shared__ reduction_smem sum_smem;
  cluster_rows<T, kVecs, kCluster, kAccess>(x, y, rows, cols, max_smem, sum_smem);
}

}  // namespace v3
}  // namespace
