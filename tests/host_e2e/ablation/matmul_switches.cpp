// host_ablate v0 (tests/host_e2e, docs/ablation.md): a host matmul whose
// METHODS are switches, each compiled 1 in the variant and 0 in its
// ablation. The four cover the four outcomes kopt ablate tells apart:
//   ABL_BLOCKED  (cache_blocking)    i-k-j order over blocks of k against the
//                                    naive i-j-k order: a large effect
//   ABL_NOOP     (register_blocking) changes nothing: ineffective
//   ABL_NEEDED   (loop_interchange)  the source does not compile without it
//   ABL_EXACT    (online_softmax)    without it the result is wrong
#include <cstdint>

#if !ABL_NEEDED
#error "host_ablate v0 cannot be built without ABL_NEEDED (the ablation test's build failure)"
#endif

void host_ablate_v0(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N, std::int64_t K) {
#if ABL_BLOCKED
  constexpr std::int64_t block = 64;
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) C[i * N + j] = 0.0f;
  }
  for (std::int64_t k0 = 0; k0 < K; k0 += block) {
    const std::int64_t k1 = k0 + block < K ? k0 + block : K;
    for (std::int64_t i = 0; i < M; ++i) {
      float* __restrict c = C + i * N;
      for (std::int64_t k = k0; k < k1; ++k) {
        const float a = A[i * K + k];
        const float* __restrict b = B + k * N;
        for (std::int64_t j = 0; j < N; ++j) c[j] += a * b[j];
      }
    }
  }
#else
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      float sum = 0.0f;
      for (std::int64_t k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
      C[i * N + j] = sum;
    }
  }
#endif
#if ABL_NOOP
  // The method this switch claims does nothing here: both builds are the same code.
#endif
#if !ABL_EXACT
  C[0] += 1.0f;
#endif
}
