// Control: byte-for-byte slow5's code under another name: SAME, not faster.
#include "work.hpp"

void adv_same(const float* x, float* y, std::int64_t n) {
  adv::compute(x, y, 0, n);
  adv::opaque(y);
  adv::compute(x, y, 0, n * 53 / 1000);
}
