// gemm v7: a family (docs/sweeps.md) over v4's cp.async + mma.sync kernel:
// the block tile's N extent (BN), its K chunk (BK) and the pipeline depth
// (STAGES) are compile-time parameters of each point (kopt::params). The
// warp layout follows BN: 2 x (BN / 64) warps of 64 x 64 outputs, and two
// blocks per SM when BN = 128 (half the registers and shared memory of a
// BN = 256 block). v4's note records a hand sweep on an H200 at 4096^3 over
// these constants (128x256x32/4 stages 335 TFLOP/s, 128x128x32/4 stages 425,
// BK 64 388-392); the family measures every declared shape instead of one,
// and the dispatch serves each shape with its fastest point. Everything
// below the constants is v4's code, unchanged (see v4_cp_async_pipeline.cu
// for the pipeline, the swizzle and the partial tiles).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include <kernelopt_params.hpp>

#include "mma_common.cuh"

namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = static_cast<int>(kopt::params::BN);
constexpr int kBlockK = static_cast<int>(kopt::params::BK);
constexpr int kStages = static_cast<int>(kopt::params::STAGES);
constexpr int kWarpsM = 2;
constexpr int kWarpsN = kBlockN / 64;
constexpr int kMinBlocksPerSm = kBlockN == 128 ? 2 : 1;
// Tiles are visited in groups of kGroupM tile rows, m fastest within a
// group, so that the blocks resident at once share rows of A and columns
// of B in L2 (1 = plain row-major order over tiles).
constexpr int kGroupM = 1;
constexpr int kThreads = kWarpsM * kWarpsN * 32;
constexpr int kWarpM = kBlockM / kWarpsM;
constexpr int kWarpN = kBlockN / kWarpsN;
constexpr int kTilesM = kWarpM / 16;  // m16 tiles per warp
constexpr int kTilesN = kWarpN / 8;   // n8 tiles per warp
constexpr int kChunksPerRowA = kBlockK / 8;  // 16-byte chunks per A row
constexpr int kChunksPerRowB = kBlockN / 8;  // per B row
constexpr int kRowsPerLineA = 8 / kChunksPerRowA;  // A rows per 128-byte line
// Copy passes: each pass, the block's threads move kThreads consecutive
// chunks, i.e. kRowStepA rows of A (kRowStepB of B).
constexpr int kRowStepA = kThreads / kChunksPerRowA;
constexpr int kRowStepB = kThreads / kChunksPerRowB;
constexpr int kPassesA = kBlockM / kRowStepA;
constexpr int kPassesB = kBlockK / kRowStepB;
constexpr int kStageElemsA = kBlockM * kBlockK;
constexpr int kStageElemsB = kBlockK * kBlockN;
constexpr int kStageElems = kStageElemsA + kStageElemsB;
constexpr std::size_t kSmemBytes = std::size_t{kStages} * kStageElems * sizeof(__nv_bfloat16);

static_assert(kChunksPerRowA == 4 || kChunksPerRowA == 8, "the A swizzle needs 64- or 128-byte rows");
static_assert(kChunksPerRowB % 8 == 0, "the B swizzle permutes groups of 8 chunks");
static_assert(kThreads % kChunksPerRowA == 0 && kBlockM % kRowStepA == 0, "A copy passes");
static_assert(kThreads % kChunksPerRowB == 0 && kBlockK % kRowStepB == 0, "B copy passes");
static_assert(kRowStepA % 8 == 0 && kRowStepB % 8 == 0,
              "a copy pass keeps a thread's swizzle key (row % 8) unchanged");
static_assert(kTilesN % 2 == 0, "B fragments come two n8 tiles per ldmatrix.x4");
static_assert(kWarpN % 64 == 0, "B fragment addressing swizzles within a warp's 8-chunk groups");
static_assert(kSmemBytes <= 227 * 1024, "beyond the per-block shared-memory limit");

// Element offsets of chunk `chunk` (16 bytes = 8 bf16) of row `row` in a
// stage. The XOR key spreads the 8 consecutive rows that one ldmatrix phase
// reads (same logical chunk) over the 8 16-byte slots of a 128-byte line:
// A rows of 64 bytes pair up in a line, so the key is (row / 2) % 4; A rows
// of 128 bytes and B rows (a multiple of 128 bytes) use row % 8. Both keys
// depend on row % 8 only.
__device__ __forceinline__ int swizzle_key_a(int row) {
  return (row / kRowsPerLineA) % kChunksPerRowA;
}
__device__ __forceinline__ int swizzle_a(int row, int chunk) {
  return row * kBlockK + ((chunk ^ swizzle_key_a(row)) * 8);
}
__device__ __forceinline__ int swizzle_b(int row, int chunk) {
  return row * kBlockN + ((chunk ^ (row & 7)) * 8);
}

__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    gemm_cp_async_kernel(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                         float* __restrict__ C, std::int64_t M, std::int64_t N, std::int64_t K,
                         std::int64_t tiles_m, std::int64_t tiles_n) {
  extern __shared__ __align__(128) __nv_bfloat16 smem[];

  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int warp_m = (warp / kWarpsN) * kWarpM;
  const int warp_n = (warp % kWarpsN) * kWarpN;

  // Grouped tile order (see kGroupM).
  const std::int64_t tiles_per_group = kGroupM * tiles_n;
  const std::int64_t group = blockIdx.x / tiles_per_group;
  const std::int64_t in_group = blockIdx.x % tiles_per_group;
  const std::int64_t first_m = group * kGroupM;
  const std::int64_t group_rows = tiles_m - first_m < kGroupM ? tiles_m - first_m : kGroupM;
  const std::int64_t m0 = (first_m + in_group % group_rows) * kBlockM;
  const std::int64_t n0 = (in_group / group_rows) * kBlockN;

  const int k_tiles = static_cast<int>((K + kBlockK - 1) / kBlockK);
  const std::uint32_t smem_base = smem_addr(smem);

  // Copy roles, fixed across stages: this thread moves chunk a_chunk of rows
  // a_row0 + i * kRowStepA of A and chunk b_chunk of rows b_row0 + i *
  // kRowStepB of B. Out-of-range chunks read nothing (size 0, clamped
  // source) and are zero-filled.
  const int a_row0 = tid / kChunksPerRowA, a_chunk = tid % kChunksPerRowA;
  const int b_row0 = tid / kChunksPerRowB, b_chunk = tid % kChunksPerRowB;
  const __nv_bfloat16* a_src = A + (m0 + a_row0) * K + a_chunk * 8;
  const __nv_bfloat16* b_src = B + static_cast<std::int64_t>(b_row0) * N + n0 + b_chunk * 8;
  const std::uint32_t a_dst = smem_base + swizzle_a(a_row0, a_chunk) * 2;
  const std::uint32_t b_dst = smem_base + (kStageElemsA + swizzle_b(b_row0, b_chunk)) * 2;
  const bool b_col_ok = n0 + b_chunk * 8 < N;
  unsigned a_rows_ok = 0;  // bit i: row a_row0 + i * kRowStepA is inside A
#pragma unroll
  for (int i = 0; i < kPassesA; ++i)
    if (m0 + a_row0 + i * kRowStepA < M) a_rows_ok |= 1u << i;

  auto load_stage = [&](int stage, int k_tile) {
    const std::int64_t k0 = static_cast<std::int64_t>(k_tile) * kBlockK;
    const std::uint32_t stage_off = stage * kStageElems * 2;
    const bool a_col_ok = k0 + a_chunk * 8 < K;
#pragma unroll
    for (int i = 0; i < kPassesA; ++i) {
      const bool ok = a_col_ok && ((a_rows_ok >> i) & 1u);
      const __nv_bfloat16* src = a_src + i * kRowStepA * K + k0;
      cp_async_16(a_dst + stage_off + i * kRowStepA * kBlockK * 2, ok ? src : A, ok);
    }
#pragma unroll
    for (int i = 0; i < kPassesB; ++i) {
      const bool ok = b_col_ok && k0 + b_row0 + i * kRowStepB < K;
      const __nv_bfloat16* src = b_src + (k0 + i * kRowStepB) * N;
      cp_async_16(b_dst + stage_off + i * kRowStepB * kBlockN * 2, ok ? src : B, ok);
    }
  };

  // Fragment addresses (lane l: row l % 16, column (l / 16) * 8 of a 16 x 16
  // block; see mma_common.cuh). Rows of a fragment start at multiples of 16,
  // so the swizzle key is the lane's own (it depends on row % 8 only); for
  // B the XOR touches only the low 3 bits of the chunk, below warp_n / 8
  // (a multiple of 8: see the static_assert on kWarpN).
  const int a_key = swizzle_key_a(lane % 16);
  const int b_key = lane & 7;
  auto a_frag_addr = [&](int stage, int i, int ks) {
    const int row = warp_m + i * 16 + lane % 16;
    const int chunk = (ks / 8 + lane / 16) ^ a_key;
    return smem_base + (stage * kStageElems + row * kBlockK + chunk * 8) * 2;
  };
  auto b_frag_addr = [&](int stage, int j2, int ks) {
    const int row = ks + lane % 16;
    const int chunk = warp_n / 8 + ((j2 * 2 + lane / 16) ^ b_key);
    return smem_base + (stage * kStageElems + kStageElemsA + row * kBlockN + chunk * 8) * 2;
  };

  float acc[kTilesM][kTilesN][4] = {};

  // Prologue: chunks 0 .. kStages-2 in flight. Every thread commits one
  // group per slot even when there is nothing to load, so that "at most
  // kStages-2 groups pending" always means "chunk k has landed".
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_stage(s, s);
    cp_async_commit();
  }

  for (int kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<kStages - 2>();
    __syncthreads();  // chunk kt visible to all; chunk kt-1's buffer free

    const int next = kt + kStages - 1;
    if (next < k_tiles) load_stage(next % kStages, next);
    cp_async_commit();

    const int stage = kt % kStages;
#pragma unroll
    for (int ks = 0; ks < kBlockK; ks += 16) {
      std::uint32_t a_frag[kTilesM][4];
      std::uint32_t b_frag[kTilesN / 2][4];
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) ldmatrix_x4(a_frag[i], a_frag_addr(stage, i, ks));
#pragma unroll
      for (int j = 0; j < kTilesN / 2; ++j) ldmatrix_x4_trans(b_frag[j], b_frag_addr(stage, j, ks));
#pragma unroll
      for (int i = 0; i < kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < kTilesN; ++j)
          mma_bf16_16816(acc[i][j], a_frag[i], b_frag[j / 2][(j % 2) * 2],
                         b_frag[j / 2][(j % 2) * 2 + 1]);
    }
  }
  cp_async_wait<0>();  // leave no copy in flight at exit (only empty groups remain)

  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int i = 0; i < kTilesM; ++i) {
    const std::int64_t m = m0 + warp_m + i * 16 + g;
#pragma unroll
    for (int j = 0; j < kTilesN; ++j) {
      const std::int64_t n = n0 + warp_n + j * 8 + 2 * t;
      store_pair(C, M, N, m, n, acc[i][j][0], acc[i][j][1]);
      store_pair(C, M, N, m + 8, n, acc[i][j][2], acc[i][j][3]);
    }
  }
}

// Raises the dynamic shared-memory limit once per process (the harness uses
// one device per process); a failure is reported on every call.
void ensure_smem_limit() {
  static const cudaError_t status = cudaFuncSetAttribute(
      gemm_cp_async_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
      static_cast<int>(kSmemBytes));
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("gemm_v7: cudaFuncSetAttribute failed: ") +
                             cudaGetErrorString(status));
}

}  // namespace

void gemm_v7(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, std::int64_t M,
             std::int64_t N, std::int64_t K, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;  // empty C; a 0-block grid is a launch error
  ensure_smem_limit();
  const std::int64_t tiles_m = ceil_div(M, kBlockM);
  const std::int64_t tiles_n = ceil_div(N, kBlockN);
  gemm_cp_async_kernel<<<static_cast<unsigned>(tiles_m * tiles_n), kThreads, kSmemBytes,
                         stream>>>(A, B, C, M, N, K, tiles_m, tiles_n);
}
