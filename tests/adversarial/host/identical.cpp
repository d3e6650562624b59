// Control: byte-for-byte v0's code under another name. Must come out SAME
// (REJECT by the speedup rule only), never faster.
#include "work.hpp"

void adv_identical(const float* x, float* y, std::int64_t n) { adv::compute(x, y, 0, n); }
