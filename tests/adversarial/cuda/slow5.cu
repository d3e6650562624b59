// The root of the 5 % pair: the whole work, then the first 5.3 % of the
// elements once more (the same values).
#include "work.cuh"

void adv_cuda_slow5(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  adv::compute(x, y, 0, n, stream);
  adv::compute(x, y, 0, n * 53 / 1000, stream);
}
