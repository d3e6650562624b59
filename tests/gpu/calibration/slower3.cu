#include "chain.cuh"

// 41 more iterations per 2000 (2 %): the extra chain costs ~1.45x per
// iteration of the main one (4.4 % measured for 3 % more iterations on an
// H200), so this lands near 3 % slower; the calibration measures it.
void calibration_slower3(const float* x, float* y, std::int64_t n, std::int64_t iters, cudaStream_t stream) {
  launch_chain(x, y, n, iters, (iters * 2 + 50) / 100 + 1, stream);
}
