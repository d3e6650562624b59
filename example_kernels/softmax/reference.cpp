// Trusted softmax for both softmax kernels: host, double precision
// (REFERENCE_PRECISION f64: the harness upcasts x, f32 or bf16, exactly).
//
// Subtracting the row max keeps every exponent <= 0, so exp never overflows
// and the largest term is exactly 1; the sum is then >= 1 and the division
// is well conditioned. Sums of positive terms in double lose at most
// cols * 2^-53 relative, far below what either kernel is checked to.
//
// Rows are independent, so they are spread over the cores
// (kopt::parallel_chunks). Serial, the ~430 million elements of one seed's
// shapes kept a core busy for seconds per trial; in parallel each softmax
// correctness test went from ~48 to ~42 s on a 32-core H200 host (the rest
// is the harness's own passes over the same data).
#include <kernelopt/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace {

void softmax_rows(const double* x, double* y, std::int64_t first, std::int64_t last, std::int64_t cols) {
  for (std::int64_t r = first; r < last; ++r) {
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

}  // namespace

void softmax_reference(const double* x, double* y, std::int64_t rows, std::int64_t cols) {
  if (rows <= 0 || cols <= 0) return;
  // About 2^18 elements per chunk: enough work to amortize a thread's start.
  const auto rows_per_chunk = static_cast<std::size_t>(std::max<std::int64_t>(1, (std::int64_t{1} << 18) / cols));
  kopt::parallel_chunks(static_cast<std::size_t>(rows), rows_per_chunk,
                        [&](std::size_t, std::size_t begin, std::size_t end) {
                          softmax_rows(x, y, static_cast<std::int64_t>(begin), static_cast<std::int64_t>(end), cols);
                        });
}
