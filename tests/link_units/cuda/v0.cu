#define LINK_FACTOR 3.0f
#include "common.cuh"

void link_cuda_v0(const float* x, float* y, std::int64_t n, cudaStream_t stream) { launch_scale(x, y, n, 1.0f, stream); }
