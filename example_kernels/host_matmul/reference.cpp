// Trusted matmul: host, double precision (REFERENCE_PRECISION f64: the
// harness upcasts A and B exactly). Products of two f32 values are exact in
// double and K <= a few hundred terms lose ~K * 2^-53 relative: the
// reference is ~1e9 times more accurate than any f32 variant.
//
// i-k-j order only for speed (it runs once per trial); the arithmetic is
// the plain sum over k.
#include <cstdint>

void host_matmul_reference(const double* A, const double* B, double* C, std::int64_t M,
                           std::int64_t N, std::int64_t K) {
  for (std::int64_t i = 0; i < M; ++i) {
    double* c = C + i * N;
    for (std::int64_t j = 0; j < N; ++j) c[j] = 0.0;
    for (std::int64_t k = 0; k < K; ++k) {
      const double a = A[i * K + k];
      const double* b = B + k * N;
      for (std::int64_t j = 0; j < N; ++j) c[j] += a * b[j];
    }
  }
}
