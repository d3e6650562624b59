// softmax_bf16 v5 (a family): v3's block / cluster row kernel
// (v3_cluster_rows.cuh) with two compile-time choices:
//   kBatch      false: each vector is converted right after its load, as in
//               v3 (the compiler then reuses the destination registers and
//               each load waits for the previous one: NOTES.md, v3);
//               true: every vector's 128 bits are loaded into a uint4 array
//               first (out-of-row vectors get the bf16 -inf pattern), and
//               only then unpacked, so a thread's loads are in flight
//               together.
//   kMaxThreads the kernel's __launch_bounds__: 1024 caps it at 64
//               registers (v3), 512 at 128.
// Everything else (the planner, the reductions, the group and streaming
// kernels) is v3's, included unchanged.
#pragma once

#include <cuda_bf16.h>

#include "v3_cluster_rows.cuh"

namespace {
namespace v5 {

using v3::access;

// bf16 -inf in both halves of a 32-bit word: 0xff80.
constexpr unsigned kNegInfPair = 0xff80ff80u;

template <int kVecs, int kCluster, access kAccess, bool kBatch>
__device__ __forceinline__ void cluster_rows(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y,
                                             std::int64_t rows, int cols, v3::reduction_smem& max_smem,
                                             v3::reduction_smem& sum_smem) {
  using io = v3::vec_io<__nv_bfloat16>;
  constexpr int kVec = io::kVec;
  static_assert(kAccess != access::scalar, "scalar access takes the streaming kernel");
  static_assert(kVecs * kVec <= v3::kValuesPerThread, "register budget per thread");
  const int tid = static_cast<int>(threadIdx.x);
  const int threads = static_cast<int>(blockDim.x);
  const int rank = static_cast<int>(v3::cluster_rank<kCluster>());
  const bool edge_owner = kAccess == access::shifted && rank == 0;

  for (std::int64_t row = blockIdx.x / kCluster; row < rows; row += gridDim.x / kCluster) {
    const __nv_bfloat16* xr = x + row * cols;
    __nv_bfloat16* yr = y + row * cols;
    const auto s = v3::split_row<__nv_bfloat16, kAccess>(xr, cols);

    float v[kVecs][kVec];
    if constexpr (kBatch) {
      uint4 raw[kVecs];
#pragma unroll
      for (int k = 0; k < kVecs; ++k) {
        const int vec = (k * kCluster + rank) * threads + tid;
        raw[k] = vec < s.body ? __ldg(reinterpret_cast<const uint4*>(xr + s.head + vec * kVec))
                              : make_uint4(kNegInfPair, kNegInfPair, kNegInfPair, kNegInfPair);
      }
#pragma unroll
      for (int k = 0; k < kVecs; ++k) {
        io::unpack2(raw[k].x, v[k][0], v[k][1]);
        io::unpack2(raw[k].y, v[k][2], v[k][3]);
        io::unpack2(raw[k].z, v[k][4], v[k][5]);
        io::unpack2(raw[k].w, v[k][6], v[k][7]);
      }
    } else {
#pragma unroll
      for (int k = 0; k < kVecs; ++k) {
        const int vec = (k * kCluster + rank) * threads + tid;
        if (vec < s.body) {
          v3::load_vec<__nv_bfloat16, kAccess>(xr + s.head + vec * kVec, v[k]);
        } else {
#pragma unroll
          for (int j = 0; j < kVec; ++j) v[k][j] = -INFINITY;
        }
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
    const float max_log2e = v3::cluster_reduce<kCluster>(m, max_smem, -INFINITY, v3::max_op{}) * v3::kLog2e;

    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kVecs; ++k)
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        v[k][j] = v3::exp2_approx(fmaf(v[k][j], v3::kLog2e, -max_log2e));
        sum += v[k][j];
      }
    if constexpr (kAccess == access::shifted) {
      edge = v3::exp2_approx(fmaf(edge, v3::kLog2e, -max_log2e));
      sum += edge;
    }
    const float inv_sum = 1.0f / v3::cluster_reduce<kCluster>(sum, sum_smem, 0.0f, v3::sum_op{});

#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const int vec = (k * kCluster + rank) * threads + tid;
      if (vec < s.body) {
#pragma unroll
        for (int j = 0; j < kVec; ++j) v[k][j] *= inv_sum;
        v3::store_vec<__nv_bfloat16, kAccess>(yr + s.head + vec * kVec, v[k]);
      }
    }
    if (edge_owner) {
      if (tid < s.head) io::store1(yr + tid, edge * inv_sum);
      if (tail_index >= 0 && tail_index < s.tail) io::store1(yr + s.head + s.body * kVec + tail_index, edge * inv_sum);
    }
    // No barrier before the next row, as in v3: the two reduction buffers
    // alternate.
  }
  if constexpr (kCluster > 1) {
    // A CTA's shared memory must outlive the other CTAs' reads of it.
    cooperative_groups::this_cluster().sync();
  }
}

template <int kVecs, int kCluster, access kAccess, bool kBatch, int kMaxThreads>
__global__ void __launch_bounds__(kMaxThreads, 1)
    cluster_rows_kernel(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y, std::int64_t rows,
                        int cols) {
  __shared__ v3::reduction_smem max_smem;
  __shared__ v3::reduction_smem sum_smem;
  cluster_rows<kVecs, kCluster, kAccess, kBatch>(x, y, rows, cols, max_smem, sum_smem);
}

}  // namespace v5
}  // namespace
