// Control for the 5 % rule: slow5 recomputes the first 5.3 % of the
// elements a second time; this one does not, and must be accepted over it.
#include "work.hpp"

void adv_better5(const float* x, float* y, std::int64_t n) { adv::compute(x, y, 0, n); }
