// The reference of static_ablate (tests/static): row sums on the host.
#include <cstdint>

void static_ablate_reference(const float* x, float* y, std::int64_t rows, std::int64_t cols) {
  for (std::int64_t r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (std::int64_t c = 0; c < cols; ++c) sum += x[r * cols + c];
    y[r] = static_cast<float>(sum);
  }
}
