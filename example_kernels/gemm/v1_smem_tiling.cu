// gemm v1: shared-memory tiling. A block of 32 x 8 threads owns a 32 x 32
// tile of C and walks K in chunks of 32: it copies a 32 x 32 tile of A and
// one of B into shared memory (converted to f32 once, on the way in), then
// every thread accumulates its 4 outputs (one column, rows ty, ty+8, ty+16,
// ty+24) from shared memory. Each element fetched from global memory now
// serves 32 outputs instead of one, so v0's L1/L2 traffic per FMA falls 32x
// and the kernel becomes bound by shared-memory loads (one broadcast load of
// A per FMA, one load of B per 4 FMAs) rather than by the memory system.
//
// Partial tiles: loads outside [0,M) x [0,K) or [0,K) x [0,N) write zeros to
// shared memory (they add nothing to the sums); stores are predicated.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kTile = 32;                  // C tile is kTile x kTile; K chunk is kTile
constexpr int kThreadsY = 8;               // block is kTile x kThreadsY threads
constexpr int kRowsPerThread = kTile / kThreadsY;

__global__ void __launch_bounds__(kTile* kThreadsY)
    gemm_smem_tiling_kernel(const __nv_bfloat16* __restrict__ A,
                            const __nv_bfloat16* __restrict__ B, float* __restrict__ C,
                            std::int64_t M, std::int64_t N, std::int64_t K,
                            std::int64_t tiles_n) {
  // As is read along k by a whole warp at once (a broadcast), Bs along n
  // (consecutive banks): neither needs padding.
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  // One linear tile index, N-tiles fastest: blocks running together share
  // the rows of A they read.
  const std::int64_t m0 = (blockIdx.x / tiles_n) * kTile;
  const std::int64_t n0 = (blockIdx.x % tiles_n) * kTile;

  float acc[kRowsPerThread] = {};
  for (std::int64_t k0 = 0; k0 < K; k0 += kTile) {
#pragma unroll
    for (int i = 0; i < kRowsPerThread; ++i) {
      const int r = ty + i * kThreadsY;
      // Consecutive tx read consecutive k (A) or n (B): coalesced.
      const std::int64_t am = m0 + r, ak = k0 + tx;
      As[r][tx] = (am < M && ak < K) ? __bfloat162float(A[am * K + ak]) : 0.0f;
      const std::int64_t bk = k0 + r, bn = n0 + tx;
      Bs[r][tx] = (bk < K && bn < N) ? __bfloat162float(B[bk * N + bn]) : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTile; ++k) {
      const float b = Bs[k][tx];
#pragma unroll
      for (int i = 0; i < kRowsPerThread; ++i) acc[i] = fmaf(As[ty + i * kThreadsY][k], b, acc[i]);
    }
    __syncthreads();  // before the next chunk overwrites the tiles
  }

  const std::int64_t n = n0 + tx;
  if (n >= N) return;
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    const std::int64_t m = m0 + ty + i * kThreadsY;
    if (m < M) C[m * N + n] = acc[i];
  }
}

}  // namespace

void gemm_v1(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, std::int64_t M,
             std::int64_t N, std::int64_t K, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;  // empty C; a 0-block grid is a launch error
  const std::int64_t tiles_m = (M + kTile - 1) / kTile;
  const std::int64_t tiles_n = (N + kTile - 1) / kTile;
  // NOTE: one block per tile, gridDim.x <= 2^31 - 1: up to ~2.2e12 outputs.
  const dim3 block(kTile, kThreadsY);
  gemm_smem_tiling_kernel<<<static_cast<unsigned>(tiles_m * tiles_n), block, 0, stream>>>(
      A, B, C, M, N, K, tiles_n);
}
