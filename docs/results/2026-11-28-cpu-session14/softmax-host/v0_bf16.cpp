#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>
#include <kernelopt/kernelopt.hpp>
#include <kernelopt/parallel.hpp>
static float f(kopt::bf16 v) { std::uint32_t b = std::uint32_t(v.bits) << 16; float r; std::memcpy(&r, &b, 4); return r; }
static kopt::bf16 h(float v) { std::uint32_t b; std::memcpy(&b, &v, 4); b += 0x7fff + ((b >> 16) & 1); kopt::bf16 o; o.bits = std::uint16_t(b >> 16); return o; }
void smx_bf16_v0(const kopt::bf16* x, kopt::bf16* y, std::int64_t rows, std::int64_t cols) {
  kopt::parallel_chunks(rows, 8, [&](std::size_t, std::size_t b, std::size_t e) {
    std::vector<float> t(cols);
    for (std::size_t r = b; r < e; ++r) {
      const kopt::bf16* xr = x + r * cols; kopt::bf16* yr = y + r * cols;
      float m = -INFINITY; for (std::int64_t c = 0; c < cols; ++c) m = std::fmax(m, f(xr[c]));
      double s = 0; for (std::int64_t c = 0; c < cols; ++c) { t[c] = std::exp(f(xr[c]) - m); s += t[c]; }
      const float inv = 1.0 / s; for (std::int64_t c = 0; c < cols; ++c) yr[c] = h(t[c] * inv);
    }
  });
}
