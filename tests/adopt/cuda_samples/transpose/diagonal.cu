// Variant v3 of transpose: the sample's transposeDiagonal.
#include "sample_transpose.cuh"

void transpose_diagonal(float* odata, const float* idata, std::int64_t width, std::int64_t height, cudaStream_t stream) {
  launch(transposeDiagonal, odata, idata, width, height, stream);
}
