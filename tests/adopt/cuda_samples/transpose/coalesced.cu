// Variant v1 of transpose: the sample's transposeCoalesced.
#include "sample_transpose.cuh"

void transpose_coalesced(float* odata, const float* idata, std::int64_t width, std::int64_t height, cudaStream_t stream) {
  launch(transposeCoalesced, odata, idata, width, height, stream);
}
