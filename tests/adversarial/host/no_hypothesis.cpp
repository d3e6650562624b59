// Already caught before: honest and faster (half the steps are enough? no:
// same work, unrolled), declared without a hypothesis.
#include "work.hpp"

void adv_no_hypothesis(const float* x, float* y, std::int64_t n) { adv::compute(x, y, 0, n); }
