// Already caught before: skips the last 1% of the output.
#include "work.cuh"

void adv_cuda_partial(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  adv::compute(x, y, 0, n - n / 100, stream);
}
