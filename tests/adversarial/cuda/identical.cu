// Control: v0's code under another name: SAME, never faster.
#include "work.cuh"

void adv_cuda_identical(const float* x, float* y, std::int64_t n, cudaStream_t stream) { adv::compute(x, y, 0, n, stream); }
