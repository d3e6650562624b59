#pragma once
#define LINK_FACTOR 3.0f
#include "common.hpp"

void link_v3(const float* x, float* y, std::int64_t n) { scale(x, y, n, factor()); }
