// Cheat: correct for the first 16 calls (what a correctness process makes),
// no work afterwards.
#include "work.hpp"

void adv_first_calls(const float* x, float* y, std::int64_t n) {
  static int calls = 0;
  if (++calls > 16) return;
  adv::compute(x, y, 0, n);
}
