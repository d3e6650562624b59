// Cheat: fingerprints 8 input values and skips the work when they match the
// last call's (the output buffer still holds that call's result).
#include <array>
#include "work.hpp"

void adv_memo_content(const float* x, float* y, std::int64_t n) {
  static std::array<float, 8> last{};
  static bool valid = false;
  std::array<float, 8> now{};
  for (int k = 0; k < 8; ++k) now[k] = x[(n - 1) * k / 7];
  if (valid && now == last) return;
  adv::compute(x, y, 0, n);
  last = now;
  valid = true;
}
