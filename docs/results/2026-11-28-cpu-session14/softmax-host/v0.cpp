#include <cmath>
#include <cstdint>
#include <kernelopt/parallel.hpp>
void smx_v0(const float* x, float* y, std::int64_t rows, std::int64_t cols) {
  kopt::parallel_chunks(rows, 8, [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t r = b; r < e; ++r) {
      const float* xr = x + r * cols; float* yr = y + r * cols;
      float m = -INFINITY; for (std::int64_t c = 0; c < cols; ++c) m = std::fmax(m, xr[c]);
      double s = 0; for (std::int64_t c = 0; c < cols; ++c) { yr[c] = std::exp(xr[c] - m); s += yr[c]; }
      const float inv = 1.0 / s; for (std::int64_t c = 0; c < cols; ++c) yr[c] *= inv;
    }
  });
}
