#include <cstdint>

// Forgets the last 7 elements.
void host_scale_unwritten(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i + 7 < n; ++i) y[i] = 2.0f * x[i] + 1.0f;
}
