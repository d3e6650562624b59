#include <cstdint>

void adv_reference(const double* x, double* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    double a = x[i];
    for (int s = 0; s < 64; ++s) a = a * 0.99 + 0.01 * x[i];
    y[i] = a;
  }
}
