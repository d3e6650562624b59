// v3, short rows (up to 256 vectors: ~1024 columns f32 or bf16): a group of
// kGroup lanes per row, 32 / kGroup rows side by side in a warp, and kRows
// such rows per lane at once, so that a lane holds kRows x kVecs vectors
// (32 values) and issues all of their 128-bit loads before the first
// shuffle. Reductions are shuffles within the group: no shared memory, no
// barrier. Warps stride over tiles of rows independently, on a grid no
// larger than what is resident (<= 64 registers: 1024 threads per SM). x is
// read once, y written once.
//
// A row of 64 f32 (the MoE-router shape) is 16 lanes x 1 vector, and a lane
// has 4 such rows in flight: 64 bytes of loads per lane, 64 KB per SM,
// against 16 bytes per lane for v2's one 32-thread block per row.
#pragma once

#include "v3_common.cuh"

namespace {
namespace v3 {

constexpr int kGroupBlockThreads = 256;
// Rows a lane holds at once: aligned rows up to 32 values and 4 rows per
// lane; shifted rows up to 16 values (at least one row), since a lane's
// per-row state (pointer, row split, edge element) costs registers too: 32
// values in 2 shifted rows, or 8 rows of one f32 vector, spill at 64
// registers.
template <typename T, access kAccess>
__host__ __device__ constexpr int group_rows_per_lane(int vecs) {
  const int values = vecs * vec_io<T>::kVec;
  const int rows = (kAccess == access::shifted ? 16 : kValuesPerThread) / values;
  return rows < 1 ? 1 : rows > 4 ? 4 : rows;
}

// REQUIRES (checked by the planner): cols / kVec <= kGroup * kVecs;
// kRows == group_rows_per_lane<T, kAccess>(kVecs);
// access::aligned: every row 16-byte aligned, cols % kVec == 0;
// access::shifted: x and y equally misaligned modulo 16 bytes.
template <typename T, int kGroup, int kVecs, int kRows, access kAccess>
__global__ void __launch_bounds__(kGroupBlockThreads, 1024 / kGroupBlockThreads)
    group_rows_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, int cols) {
  using io = vec_io<T>;
  constexpr int kVec = io::kVec;
  static_assert(kAccess != access::scalar, "scalar access takes the streaming kernel");
  static_assert(kGroup <= 32 && (kGroup & (kGroup - 1)) == 0, "a power-of-2 part of a warp");
  // Head (< kVec elements) on lanes [0, head), tail (< kVec) on lanes
  // [kVec, kVec + tail): one scalar per lane and row.
  static_assert(kAccess == access::aligned ? kGroup >= kVec : kGroup >= 2 * kVec,
                "a group too narrow for the row's head and tail");
  static_assert(kRows == group_rows_per_lane<T, kAccess>(kVecs), "register budget per thread");
  constexpr bool kEdges = kAccess == access::shifted;
  constexpr int kGroupsPerWarp = 32 / kGroup;
  constexpr int kTileRows = kGroupsPerWarp * kRows;

  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int group = lane / kGroup;
  const int lane_in_group = lane % kGroup;
  const std::int64_t tiles = (rows + kTileRows - 1) / kTileRows;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  const std::int64_t first = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;

  for (std::int64_t tile = first; tile < tiles; tile += warps) {
    // Row r of this lane's group: adjacent groups take adjacent rows, so a
    // warp's load of one (r, k) covers 32 / kGroup consecutive rows.
    const std::int64_t row0 = tile * kTileRows + group;
    float v[kRows][kVecs][kVec];
    float edge[kRows];
    float max_log2e[kRows];
    float inv_sum[kRows];

    // Out-of-row vectors and rows past the end are -inf: they never win the
    // max, their exponential is 0, and they are never stored.
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const std::int64_t row = row0 + r * kGroupsPerWarp;
      const bool valid = row < rows;
      const T* xr = x + row * cols;
      const auto s = split_row<T, kAccess>(xr, cols);
#pragma unroll
      for (int k = 0; k < kVecs; ++k) {
        const int vec = k * kGroup + lane_in_group;
        if (valid && vec < s.body) {
          load_vec<T, kAccess>(xr + s.head + vec * kVec, v[r][k]);
        } else {
#pragma unroll
          for (int j = 0; j < kVec; ++j) v[r][k][j] = -INFINITY;
        }
      }
      edge[r] = -INFINITY;
      if constexpr (kEdges) {
        if (valid && lane_in_group < s.head) edge[r] = io::load1(xr + lane_in_group);
        const int t = lane_in_group - kVec;
        if (valid && t >= 0 && t < s.tail) edge[r] = io::load1(xr + s.head + s.body * kVec + t);
      }
    }

#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      float m = edge[r];
#pragma unroll
      for (int k = 0; k < kVecs; ++k)
#pragma unroll
        for (int j = 0; j < kVec; ++j) m = fmaxf(m, v[r][k][j]);
      max_log2e[r] = group_max<kGroup>(m) * kLog2e;
    }

    // One exponential per element, kept in place for the store.
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      float sum = 0.0f;
#pragma unroll
      for (int k = 0; k < kVecs; ++k)
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
          v[r][k][j] = exp2_approx(fmaf(v[r][k][j], kLog2e, -max_log2e[r]));
          sum += v[r][k][j];
        }
      if constexpr (kEdges) {
        edge[r] = exp2_approx(fmaf(edge[r], kLog2e, -max_log2e[r]));
        sum += edge[r];
      }
      inv_sum[r] = 1.0f / group_sum<kGroup>(sum);
    }

#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const std::int64_t row = row0 + r * kGroupsPerWarp;
      if (row >= rows) continue;
      T* yr = y + row * cols;
      // y is misaligned exactly as x (the planner's condition for shifted).
      const auto s = split_row<T, kAccess>(yr, cols);
#pragma unroll
      for (int k = 0; k < kVecs; ++k) {
        const int vec = k * kGroup + lane_in_group;
        if (vec < s.body) {
#pragma unroll
          for (int j = 0; j < kVec; ++j) v[r][k][j] *= inv_sum[r];
          store_vec<T, kAccess>(yr + s.head + vec * kVec, v[r][k]);
        }
      }
      if constexpr (kEdges) {
        if (lane_in_group < s.head) io::store1(yr + lane_in_group, edge[r] * inv_sum[r]);
        const int t = lane_in_group - kVec;
        if (t >= 0 && t < s.tail) io::store1(yr + s.head + s.body * kVec + t, edge[r] * inv_sum[r]);
      }
    }
  }
}

}  // namespace v3
}  // namespace
