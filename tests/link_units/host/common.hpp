// Included by every variant of link_host, as existing code is written:
// external linkage throughout (a global, and functions neither static nor
// inline), and a body that differs per variant (LINK_FACTOR, defined by the
// includer). In one executable this is a "multiple definition" link error;
// with one module per variant each keeps its own copy. Were the copies
// merged, the variants would compute with one factor and fail.
#pragma once

#include <cstdint>

int calls = 0;

float factor() { return LINK_FACTOR; }

void scale(const float* x, float* y, std::int64_t n, float by) {
  ++calls;
  for (std::int64_t i = 0; i < n; ++i) y[i] = x[i] * by;
}
