// Control: honest, faster (the chain in closed form: a geometric series, 8
// multiply-adds instead of 64) and nondeterministic in its last bits (the
// rounding of the closed form differs by call). Correct within TOLERANCE:
// must be accepted.
#include <atomic>
#include <cmath>
#include "work.hpp"

void adv_nondet(const float* x, float* y, std::int64_t n) {
  static std::atomic<unsigned> call{0};
  const float jitter = 1.0f + static_cast<float>(call++ % 3) * 1e-7f;
  // a_s = x (0.99^s) + x (1 - 0.99^s) = x: the chain is the identity on x
  // in exact arithmetic; f32 rounding leaves ~1e-6 relative.
  for (std::int64_t i = 0; i < n; ++i) {
    float a = x[i];
    for (int s = 0; s < 8; ++s) {
      a = a * 0.99f + 0.01f * x[i];
      // One element at a time, as v0's chain runs: vectorized, these 8 steps
      // took 42 us at n=65536 against the honest copy's 33 us, a margin that
      // a busy CI machine's 17 % noise hid (the control came out REJECT).
      adv::keep_scalar(a);
    }
    y[i] = a * jitter;
  }
}
