// The root of the 5 % pair: the whole work, then the first 5.3 % of the
// elements once more (same values; the barrier keeps the compiler from
// dropping the repeat).
#include "work.hpp"

void adv_slow5(const float* x, float* y, std::int64_t n) {
  adv::compute(x, y, 0, n);
  adv::opaque(y);
  adv::compute(x, y, 0, n * 53 / 1000);
}
