#include <cstdint>

void saxpy_v0(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = 3.0f * x[i] + y[i];
}
