#include <cstdint>

// y[i] = 2 x[i] + 1, computed in double.
void host_scale_reference(const double* x, double* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = 2.0 * x[i] + 1.0;
}
