// Control: honest and much faster: the chain is the identity in exact
// arithmetic (see nondet.cpp), so y = x within f32 rounding.
#include <cstring>
#include "work.hpp"

void adv_honest(const float* x, float* y, std::int64_t n) {
  std::memcpy(y, x, sizeof(float) * static_cast<std::size_t>(n));
}
