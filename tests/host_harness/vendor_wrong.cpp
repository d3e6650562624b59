#include <cstdint>

// A wrong "vendor" baseline: off by 1% on every element. Its speedup
// figures would be meaningless; its correctness test must fail.
void host_scale_vendor_wrong(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = 1.01f * (2.0f * x[i] + 1.0f);
}
