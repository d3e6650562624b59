// Host reference for broken_scale: y = 2 * x, exact in any precision.
// On the host so that it is unaffected when a variant wrecks the device.
#include <cstdint>

void broken_scale_reference(const double* x, double* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = 2.0 * x[i];
}
