#include <cstdint>

// Numerically wrong on every 97th element.
void host_scale_wrong(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = 2.0f * x[i] + (i % 97 == 50 ? 1.5f : 1.0f);
}
