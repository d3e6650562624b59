// Control for the 5 % rule: v0_slow below does 5 % more work than this one
// (it recomputes one element in twenty); this one must be accepted over it.
#include "work.hpp"

void adv_better5(const float* x, float* y, std::int64_t n) { adv::compute(x, y, 0, n); }
