// Trusted GEMM on the device: one thread per output, products and sums in
// double. A product of two bf16 values is exact in double (8 + 8 significant
// bits), and a double sum of K <= 8192 such products errs by at most
// ~K * 2^-53 relative to the sum of |products|: far below f32 rounding, so
// the only visible error is the final rounding of C to f32.
//
// Deliberately simple (no tiling, no shared memory) so that it is easy to
// trust; it is slow, which only matters for its benchmark row.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace {

constexpr int kBlockX = 32;  // along N: a warp reads 32 consecutive B and C elements
constexpr int kBlockY = 8;   // along M
constexpr std::int64_t kMaxGridY = 65535;

__global__ void gemm_reference_kernel(const __nv_bfloat16* __restrict__ A,
                                      const __nv_bfloat16* __restrict__ B, float* __restrict__ C,
                                      std::int64_t M, std::int64_t N, std::int64_t K) {
  const std::int64_t n = static_cast<std::int64_t>(blockIdx.x) * kBlockX + threadIdx.x;
  if (n >= N) return;
  // gridDim.y is capped at 65535, so rows beyond that loop.
  for (std::int64_t m = static_cast<std::int64_t>(blockIdx.y) * kBlockY + threadIdx.y; m < M;
       m += static_cast<std::int64_t>(gridDim.y) * kBlockY) {
    double acc = 0.0;
    for (std::int64_t k = 0; k < K; ++k)
      acc += static_cast<double>(__bfloat162float(A[m * K + k])) *
             static_cast<double>(__bfloat162float(B[k * N + n]));
    C[m * N + n] = static_cast<float>(acc);
  }
}

}  // namespace

void gemm_reference(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, std::int64_t M,
                    std::int64_t N, std::int64_t K, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;  // empty C; a 0-block grid is a launch error
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((N + kBlockX - 1) / kBlockX),
                  static_cast<unsigned>(std::min((M + kBlockY - 1) / kBlockY, kMaxGridY)));
  gemm_reference_kernel<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
