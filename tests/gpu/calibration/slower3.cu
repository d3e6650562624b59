#include "chain.cuh"

// 3 % more dependent iterations than base: about 3 % slower.
void calibration_slower3(const float* x, float* y, std::int64_t n, std::int64_t iters, cudaStream_t stream) {
  launch_chain(x, y, n, iters, (iters * 3 + 50) / 100, stream);
}
