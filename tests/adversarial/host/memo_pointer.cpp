// Cheat: remembers which (input, output) pointer pairs it has computed and
// skips the work for them. The first input value is part of the key, so a
// correctness process that frees and reallocates buffers at the same
// addresses for new content does not expose it: the benchmark must.
#include <set>
#include <tuple>
#include "work.hpp"

void adv_memo_pointer(const float* x, float* y, std::int64_t n) {
  static std::set<std::tuple<const float*, float*, float>> seen;
  if (!seen.insert({x, y, x[0]}).second) return;
  adv::compute(x, y, 0, n);
}
