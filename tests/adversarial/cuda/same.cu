// Control: slow5's code under another name: SAME, not faster.
#include "work.cuh"

void adv_cuda_same(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  adv::compute(x, y, 0, n, stream);
  adv::compute(x, y, 0, n * 53 / 1000, stream);
}
