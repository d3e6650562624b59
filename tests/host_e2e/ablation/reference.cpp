// The reference of host_ablate (tests/host_e2e): a plain triple loop in double.
#include <cstdint>

void host_ablate_reference(const double* A, const double* B, double* C, std::int64_t M, std::int64_t N,
                           std::int64_t K) {
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      double sum = 0.0;
      for (std::int64_t k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
      C[i * N + j] = sum;
    }
  }
}
