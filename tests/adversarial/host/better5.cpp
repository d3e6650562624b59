// Control for the 5 % rule: slow5 recomputes the first 8 % of the elements
// a second time, which measures ~5 % slower on an x86-64 CI machine (the
// repeat runs on data already in cache); this one must be accepted over it.
#include "work.hpp"

void adv_better5(const float* x, float* y, std::int64_t n) { adv::compute(x, y, 0, n); }
