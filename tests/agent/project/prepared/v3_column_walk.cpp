// A prepared variant the agent declares fourth: j-i-k, a column of C at a
// time, still walking B by columns: slower than the best (v1), rejected.
// The second rejection in a row is stagnation: kopt status says stop.
#include <cstdint>

void matmul_v3(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N, std::int64_t K) {
  for (std::int64_t j = 0; j < N; ++j) {
    for (std::int64_t i = 0; i < M; ++i) {
      float sum = 0.0f;
      for (std::int64_t k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
      C[i * N + j] = sum;
    }
  }
}
