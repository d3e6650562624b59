// Trusted softmax for both softmax kernels: host, double precision
// (REFERENCE_PRECISION f64: the harness upcasts x, f32 or bf16, exactly).
//
// Subtracting the row max keeps every exponent <= 0, so exp never overflows
// and the largest term is exactly 1; the sum is then >= 1 and the division
// is well conditioned. Sums of positive terms in double lose at most
// cols * 2^-53 relative, far below what either kernel is checked to.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

void softmax_reference(const double* x, double* y, std::int64_t rows, std::int64_t cols) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * cols;
    double* yr = y + r * cols;
    double row_max = -std::numeric_limits<double>::infinity();
    for (std::int64_t c = 0; c < cols; ++c) row_max = std::max(row_max, xr[c]);
    double row_sum = 0.0;
    for (std::int64_t c = 0; c < cols; ++c) {
      yr[c] = std::exp(xr[c] - row_max);
      row_sum += yr[c];
    }
    for (std::int64_t c = 0; c < cols; ++c) yr[c] /= row_sum;
  }
}
