#include <cstdint>

// Off by one: writes y[n], one element past the end (into the harness's guard).
void host_scale_oob(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i <= n; ++i) y[i] = 2.0f * x[i < n ? i : n - 1] + 1.0f;
}
