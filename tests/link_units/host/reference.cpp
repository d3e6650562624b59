#include <cstdint>

void link_reference(const double* x, double* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = 3.0 * x[i];
}
