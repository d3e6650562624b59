// host_matmul v0: the textbook i-j-k loop. The inner loop walks a column of
// B, one element per row of N floats: every multiply-add touches a new
// cache line of B, and the single running sum is a serial dependency chain
// that the compiler may not reorder (no -ffast-math), so it cannot be
// vectorized either.
#include <cstdint>

void host_matmul_v0(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                    std::int64_t K) {
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      float sum = 0.0f;
      for (std::int64_t k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
      C[i * N + j] = sum;
    }
  }
}
