// An existing launcher adopted as it is (DIM_TYPE int): int sizes.
#define LINK_FACTOR 3.0f
#include "common.hpp"

void launch_link(const float* x, float* y, int n) { scale(x, y, n, factor()); }
