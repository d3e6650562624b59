// A tiled f32 matrix multiply on the host, C[M,N] = A[M,K] B[K,N], whose
// tile sizes are compile-time parameters of a family (docs/sweeps.md):
// kopt::params::TM, TN and TK come from the point being built. Two points
// are wrong on purpose, so that the sweep records both kinds of failure:
// TM == 32 && TN == 16 does not compile, and TK == 8 && TM == 4 drops the
// last k-step of every tile (incorrect).
// Two methods can be switched off for kopt ablate (METHODS, docs/ablation.md):
// KOPT_SWEEP_ROW_ORDER=0 walks each tile in i-j-k order (a column of B per
// element, a serial sum: not vectorizable, several times slower), and
// KOPT_SWEEP_BLOCKING=0 runs one untiled i-k-j loop that, on purpose,
// forgets to clear C first (the harness poisons outputs: incorrect, an
// implementation-failed ablation).
#include <algorithm>
#include <cstdint>

#include <kernelopt_params.hpp>

namespace {

constexpr std::int64_t kTM = kopt::params::TM;
constexpr std::int64_t kTN = kopt::params::TN;
constexpr std::int64_t kTK = kopt::params::TK;
static_assert(!(kTM == 32 && kTN == 16), "this point does not compile, on purpose (tests/sweep)");
constexpr bool kDropLastK = kTK == 8 && kTM == 4;

}  // namespace

void matmul_tiled(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                  std::int64_t K) {
#if !KOPT_SWEEP_BLOCKING
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t k = 0; k < K; ++k) {
      for (std::int64_t j = 0; j < N; ++j) C[i * N + j] += A[i * K + k] * B[k * N + j];
    }
  }
  return;
#endif
  for (std::int64_t i = 0; i < M * N; ++i) C[i] = 0.0f;
  for (std::int64_t i0 = 0; i0 < M; i0 += kTM) {
    const std::int64_t i1 = std::min(M, i0 + kTM);
    for (std::int64_t j0 = 0; j0 < N; j0 += kTN) {
      const std::int64_t j1 = std::min(N, j0 + kTN);
      for (std::int64_t k0 = 0; k0 < K; k0 += kTK) {
        std::int64_t k1 = std::min(K, k0 + kTK);
        if (kDropLastK) k1 -= 1;
#if KOPT_SWEEP_ROW_ORDER
        for (std::int64_t i = i0; i < i1; ++i) {
          for (std::int64_t k = k0; k < k1; ++k) {
            const float a = A[i * K + k];
            for (std::int64_t j = j0; j < j1; ++j) C[i * N + j] += a * B[k * N + j];
          }
        }
#else
        for (std::int64_t i = i0; i < i1; ++i) {
          for (std::int64_t j = j0; j < j1; ++j) {
            float sum = 0.0f;
            for (std::int64_t k = k0; k < k1; ++k) sum += A[i * K + k] * B[k * N + j];
            C[i * N + j] += sum;
          }
        }
#endif
      }
    }
  }
}
