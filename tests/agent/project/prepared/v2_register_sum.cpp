// A prepared variant the agent declares third: the i-j-k loop of v0 again
// (its sum already lives in a register), so it is far slower than the best
// (v1, i-k-j) and the gate rejects it, as the test expects.
#include <cstdint>

void matmul_v2(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N, std::int64_t K) {
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      float sum = 0.0f;
      for (std::int64_t k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
      C[i * N + j] = sum;
    }
  }
}
