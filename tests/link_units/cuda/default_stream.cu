// An existing launcher adopted as it is (DIM_TYPE int, STREAM NONE): int
// sizes and the default stream.
#define LINK_FACTOR 3.0f
#include "common.cuh"

void launch_link_cuda(const float* x, float* y, int n) {
  ++host_calls;
  scale_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x, y, n, 1.0f);
}
