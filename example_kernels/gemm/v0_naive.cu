// gemm v0: one thread per output element, f32 accumulation, operands read
// straight from global memory. Threads of a warp share a row of A (one
// broadcast load) and read 32 consecutive elements of a row of B, so loads
// are coalesced, but every element of A and B is fetched from L1/L2 once
// per output that uses it (no reuse through shared memory or registers):
// the starting point the tiled and tensor-core variants are measured from.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace {

constexpr int kBlockX = 32;  // along N
constexpr int kBlockY = 8;   // along M
constexpr std::int64_t kMaxGridY = 65535;

__global__ void __launch_bounds__(kBlockX* kBlockY)
    gemm_naive_kernel(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                      float* __restrict__ C, std::int64_t M, std::int64_t N, std::int64_t K) {
  const std::int64_t n = static_cast<std::int64_t>(blockIdx.x) * kBlockX + threadIdx.x;
  if (n >= N) return;
  // gridDim.y is capped at 65535, so rows beyond that loop.
  for (std::int64_t m = static_cast<std::int64_t>(blockIdx.y) * kBlockY + threadIdx.y; m < M;
       m += static_cast<std::int64_t>(gridDim.y) * kBlockY) {
    const __nv_bfloat16* a = A + m * K;
    const __nv_bfloat16* b = B + n;
    float acc = 0.0f;
    for (std::int64_t k = 0; k < K; ++k)
      acc = fmaf(__bfloat162float(a[k]), __bfloat162float(b[k * N]), acc);
    C[m * N + n] = acc;
  }
}

}  // namespace

void gemm_v0(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, std::int64_t M,
             std::int64_t N, std::int64_t K, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;  // empty C; a 0-block grid is a launch error
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((N + kBlockX - 1) / kBlockX),
                  static_cast<unsigned>(std::min((M + kBlockY - 1) / kBlockY, kMaxGridY)));
  gemm_naive_kernel<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
