// Variant v1 of reduction: the sample's kernel 1 (reduce1).
#include "sample_reduce.cuh"

void reduction_v1(const float* x, float* sum, std::int64_t n, cudaStream_t stream) { sample_reduce(1, x, sum, n, stream); }
