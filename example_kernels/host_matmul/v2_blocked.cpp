// host_matmul v2: cache-blocked i-k-j. For each kNc-wide column panel of C
// and each kKc-deep slice of K, every row of A sweeps the same kKc x kNc
// block of B (32 KB: stays in L1/L2 across all M rows instead of streaming
// all of B from memory once per row). Inside the block, four k-steps update
// a row segment of C in one pass, so C is loaded and stored once per four
// multiply-adds instead of once per multiply-add.
#include <algorithm>
#include <cstdint>

namespace {

constexpr std::int64_t kNc = 256;  // columns of a B block: 1 KB per row
constexpr std::int64_t kKc = 32;   // rows of a B block: kKc * kNc * 4 B = 32 KB

// c[j] += sum over the four rows; same order of additions per element as
// written, so the result does not depend on how the compiler vectorizes j.
void update4(float* __restrict c, const float* __restrict b0, const float* __restrict b1,
             const float* __restrict b2, const float* __restrict b3, float a0, float a1,
             float a2, float a3, std::int64_t n) {
  for (std::int64_t j = 0; j < n; ++j)
    c[j] += a0 * b0[j] + a1 * b1[j] + a2 * b2[j] + a3 * b3[j];
}

void update1(float* __restrict c, const float* __restrict b, float a, std::int64_t n) {
  for (std::int64_t j = 0; j < n; ++j) c[j] += a * b[j];
}

}  // namespace

void host_matmul_v2(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                    std::int64_t K) {
  for (std::int64_t i = 0; i < M * N; ++i) C[i] = 0.0f;
  for (std::int64_t j0 = 0; j0 < N; j0 += kNc) {
    const std::int64_t n = std::min(kNc, N - j0);
    for (std::int64_t k0 = 0; k0 < K; k0 += kKc) {
      const std::int64_t k1 = std::min(K, k0 + kKc);
      for (std::int64_t i = 0; i < M; ++i) {
        const float* a = A + i * K;
        float* c = C + i * N + j0;
        std::int64_t k = k0;
        for (; k + 4 <= k1; k += 4) {
          const float* b = B + k * N + j0;
          update4(c, b, b + N, b + 2 * N, b + 3 * N, a[k], a[k + 1], a[k + 2], a[k + 3], n);
        }
        for (; k < k1; ++k) update1(c, B + k * N + j0, a[k], n);
      }
    }
  }
}
