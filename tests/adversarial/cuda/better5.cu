// Control: no repeat of the first 5.3 % of the elements: ~5 % less work
// than slow5; must be accepted.
#include "work.cuh"

void adv_cuda_better5(const float* x, float* y, std::int64_t n, cudaStream_t stream) { adv::compute(x, y, 0, n, stream); }
