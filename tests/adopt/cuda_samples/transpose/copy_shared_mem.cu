// Baseline of transpose_copy: the sample's copySharedMem.
#include "sample_transpose.cuh"

void copy_shared_mem(float* odata, const float* idata, std::int64_t width, std::int64_t height, cudaStream_t stream) {
  launch(copySharedMem, odata, idata, width, height, stream);
}
