#define LINK_FACTOR 1.5f
#include "common.hpp"

void link_v1(const float* x, float* y, std::int64_t n) { scale(x, y, n, 2.0f * factor()); }
