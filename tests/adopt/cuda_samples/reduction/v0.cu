// Variant v0 of reduction: the sample's kernel 0 (reduce0).
#include "sample_reduce.cuh"

void reduction_v0(const float* x, float* sum, std::int64_t n, cudaStream_t stream) { sample_reduce(0, x, sum, n, stream); }
