// Already caught before: skips the last 1% of the output.
#include "work.hpp"

void adv_partial(const float* x, float* y, std::int64_t n) { adv::compute(x, y, 0, n - n / 100); }
