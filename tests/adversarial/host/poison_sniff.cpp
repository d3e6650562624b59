// Cheat: does the work only when its output is poisoned (NaN), as checked
// launches and correctness trials leave it; on every other call it returns
// at once, leaving the last result in place. It passes every check made on
// poisoned outputs: the benchmark must check a timed call as it is.
#include <cmath>
#include "work.hpp"

void adv_poison_sniff(const float* x, float* y, std::int64_t n) {
  if (!std::isnan(y[0])) return;
  adv::compute(x, y, 0, n);
}
