#define LINK_FACTOR 1.5f
#include "common.cuh"

void link_cuda_v1(const float* x, float* y, std::int64_t n, cudaStream_t stream) { launch_scale(x, y, n, 2.0f, stream); }
