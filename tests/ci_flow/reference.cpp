#include <cmath>
#include <cstdint>

// y = x after 20 steps of v <- v * 0.5 + 0.25, in double.
void ci_flow_reference(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    double v = x[i];
    for (int k = 0; k < 20; ++k) v = v * 0.5 + 0.25;
    y[i] = static_cast<float>(v);
  }
}
