// tests/scale: the parent v0 of the family scale_fam. The merged report's
// champion per shape is chosen among every variant, v0 included, so v0 must
// lose to each shape's champion point by a margin no load on the CPU can
// close: it computes C = A B four times with the points' inner loop, where
// the champion computes it once (family_point.cpp). The textbook loop of
// host_matmul v0 was too close to the champion under AddressSanitizer on a
// loaded 2-core machine, and the single and sharded runs named different
// champions.
#include <cstdint>

void scale_fam_parent(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N, std::int64_t K) {
  constexpr int kReps = 4;
  for (int r = 0; r < kReps; ++r) {
    for (std::int64_t i = 0; i < M * N; ++i) C[i] = 0.0f;
    for (std::int64_t i = 0; i < M; ++i) {
      for (std::int64_t k = 0; k < K; ++k) {
        const float a = A[i * K + k];
        float* c = C + i * N;
        const float* b = B + k * N;
        for (std::int64_t j = 0; j < N; ++j) c[j] += a * b[j];
      }
    }
  }
}
