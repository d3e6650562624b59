#include <cstdint>

// Wrong: y is declared `inout f32`, but this takes double and int.
void saxpy_v1(const float* x, double* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = 3.0 * x[i] + y[i];
}
