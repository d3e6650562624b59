// gemm v3: tensor cores through mma.sync. A block of 8 warps owns a
// 128 x 128 tile of C and walks K in chunks of 32; warps are laid out 2 (m)
// x 4 (n), each owning 64 x 32 outputs as 4 x 4 m16n8 accumulator tiles
// (64 f32 registers per thread). Per 16-wide k step a warp loads its A
// fragments with 4 ldmatrix.x4 and its B fragments with 2 ldmatrix.x4.trans
// (B is row-major [K,N], i.e. k-major, which the mma's "col" B operand reads
// transposed), then issues 16 mma.sync.m16n8k16 (bf16 in, f32 accumulate).
// One HMMA does 4096 FMAs, so issue slots stop being the limit that FFMA
// was in v2; operands stay bf16 all the way (half v2's shared-memory bytes).
//
// Global -> shared copies are synchronous and unpipelined: each chunk is
// loaded with 128-bit loads into registers, stored to shared memory between
// two barriers and only then computed, so the global latency is hidden only
// by the other resident blocks (v4 pipelines it with cp.async).
//
// Shared rows are padded by 8 bf16 (16 bytes): A rows are 80 bytes and B
// rows 272 bytes apart, so the 8 row addresses of each ldmatrix phase fall
// in 8 different 16-byte bank groups (no bank conflicts).
//
// Partial tiles: chunks outside the matrices are zero-filled in shared
// memory; stores are predicated. Dimensions are multiples of 8, so every
// 8-element chunk is wholly in or out of range.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "mma_common.cuh"

namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 32;
constexpr int kWarpsM = 2;
constexpr int kWarpsN = 4;
constexpr int kThreads = kWarpsM * kWarpsN * 32;
constexpr int kWarpM = kBlockM / kWarpsM;  // 64
constexpr int kWarpN = kBlockN / kWarpsN;  // 32
constexpr int kTilesM = kWarpM / 16;       // m16 tiles per warp
constexpr int kTilesN = kWarpN / 8;        // n8 tiles per warp
constexpr int kPad = 8;                    // bf16 per row of padding
constexpr int kStrideA = kBlockK + kPad;   // 40 bf16 = 80 bytes
constexpr int kStrideB = kBlockN + kPad;   // 136 bf16 = 272 bytes
constexpr int kChunksA = kBlockM * kBlockK / 8 / kThreads;  // 16-byte chunks per thread
constexpr int kChunksB = kBlockK * kBlockN / 8 / kThreads;

static_assert(kChunksA * kThreads * 8 == kBlockM * kBlockK, "A tile splits evenly");
static_assert(kChunksB * kThreads * 8 == kBlockK * kBlockN, "B tile splits evenly");
static_assert(kTilesN % 2 == 0, "B fragments come two n8 tiles per ldmatrix.x4");

__global__ void __launch_bounds__(kThreads, 2)
    gemm_mma_sync_kernel(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                         float* __restrict__ C, std::int64_t M, std::int64_t N, std::int64_t K,
                         std::int64_t tiles_n) {
  __shared__ __align__(16) __nv_bfloat16 As[kBlockM * kStrideA];
  __shared__ __align__(16) __nv_bfloat16 Bs[kBlockK * kStrideB];

  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int warp_m = (warp / kWarpsN) * kWarpM;
  const int warp_n = (warp % kWarpsN) * kWarpN;
  const std::int64_t m0 = (blockIdx.x / tiles_n) * kBlockM;
  const std::int64_t n0 = (blockIdx.x % tiles_n) * kBlockN;

  // ldmatrix addresses: lane l points at row (l % 16), column (l / 16) * 8
  // of each 16 x 16 block (see mma_common.cuh).
  const std::uint32_t a_frag_base =
      smem_addr(&As[(warp_m + lane % 16) * kStrideA + (lane / 16) * 8]);
  const std::uint32_t b_frag_base =
      smem_addr(&Bs[(lane % 16) * kStrideB + warp_n + (lane / 16) * 8]);

  float acc[kTilesM][kTilesN][4] = {};

  for (std::int64_t k0 = 0; k0 < K; k0 += kBlockK) {
    uint4 a_regs[kChunksA], b_regs[kChunksB];
#pragma unroll
    for (int i = 0; i < kChunksA; ++i) {
      const int c = tid + i * kThreads;
      const int row = c / (kBlockK / 8), col = (c % (kBlockK / 8)) * 8;
      const std::int64_t m = m0 + row, k = k0 + col;
      a_regs[i] = load_chunk_or_zero(A + m * K + k, m < M && k < K);
    }
#pragma unroll
    for (int i = 0; i < kChunksB; ++i) {
      const int c = tid + i * kThreads;
      const int row = c / (kBlockN / 8), col = (c % (kBlockN / 8)) * 8;
      const std::int64_t k = k0 + row, n = n0 + col;
      b_regs[i] = load_chunk_or_zero(B + k * N + n, k < K && n < N);
    }
    __syncthreads();  // every warp is done reading the previous chunk
#pragma unroll
    for (int i = 0; i < kChunksA; ++i) {
      const int c = tid + i * kThreads;
      *reinterpret_cast<uint4*>(&As[(c / (kBlockK / 8)) * kStrideA + (c % (kBlockK / 8)) * 8]) =
          a_regs[i];
    }
#pragma unroll
    for (int i = 0; i < kChunksB; ++i) {
      const int c = tid + i * kThreads;
      *reinterpret_cast<uint4*>(&Bs[(c / (kBlockN / 8)) * kStrideB + (c % (kBlockN / 8)) * 8]) =
          b_regs[i];
    }
    __syncthreads();

#pragma unroll
    for (int ks = 0; ks < kBlockK; ks += 16) {
      std::uint32_t a_frag[kTilesM][4];
      std::uint32_t b_frag[kTilesN / 2][4];
#pragma unroll
      for (int i = 0; i < kTilesM; ++i)
        ldmatrix_x4(a_frag[i], a_frag_base + (i * 16 * kStrideA + ks) * 2);
#pragma unroll
      for (int j = 0; j < kTilesN / 2; ++j)
        ldmatrix_x4_trans(b_frag[j], b_frag_base + (ks * kStrideB + j * 16) * 2);
#pragma unroll
      for (int i = 0; i < kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < kTilesN; ++j)
          mma_bf16_16816(acc[i][j], a_frag[i], b_frag[j / 2][(j % 2) * 2],
                         b_frag[j / 2][(j % 2) * 2 + 1]);
    }
  }

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

}  // namespace

void gemm_v3(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, std::int64_t M,
             std::int64_t N, std::int64_t K, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;  // empty C; a 0-block grid is a launch error
  const std::int64_t tiles = ceil_div(M, kBlockM) * ceil_div(N, kBlockN);
  gemm_mma_sync_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
      A, B, C, M, N, K, ceil_div(N, kBlockN));
}
