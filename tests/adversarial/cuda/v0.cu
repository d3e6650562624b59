// The honest root.
#include "work.cuh"

void adv_cuda_v0(const float* x, float* y, std::int64_t n, cudaStream_t stream) { adv::compute(x, y, 0, n, stream); }
