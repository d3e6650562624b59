// A consumer of the generated dispatch (tests/sweep): links
// kernelopt::sweep_mm_dispatch, multiplies two small matrices through it and
// checks the result against a plain loop; prints the point that served.
#include <sweep_mm_dispatch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  const std::int64_t M = 48, N = 40, K = 24;
  std::vector<float> a(M * K), b(K * N), c(M * N, -1.0f);
  for (std::int64_t i = 0; i < M * K; ++i) a[i] = static_cast<float>((i * 7) % 11) - 5.0f;
  for (std::int64_t i = 0; i < K * N; ++i) b[i] = static_cast<float>((i * 5) % 13) - 6.0f;
  sweep_mm_dispatch(a.data(), b.data(), c.data(), M, N, K);
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      float want = 0.0f;
      for (std::int64_t k = 0; k < K; ++k) want += a[i * K + k] * b[k * N + j];
      if (std::fabs(want - c[i * N + j]) > 1e-3f) {
        std::printf("consumer: C[%lld,%lld] = %g, expected %g\n", static_cast<long long>(i),
                    static_cast<long long>(j), c[i * N + j], want);
        return 1;
      }
    }
  }
  std::printf("consumer: %lldx%lldx%lld correct, served by %s\n", static_cast<long long>(M),
              static_cast<long long>(N), static_cast<long long>(K), sweep_mm_dispatch_point(M, N, K));
  return 0;
}
