// Variant v0 of transpose: the sample's transposeNaive.
#include "sample_transpose.cuh"

void transpose_naive(float* odata, const float* idata, std::int64_t width, std::int64_t height, cudaStream_t stream) {
  launch(transposeNaive, odata, idata, width, height, stream);
}
