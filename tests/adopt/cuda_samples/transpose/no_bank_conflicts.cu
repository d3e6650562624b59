// Variant v2 of transpose: the sample's transposeNoBankConflicts.
#include "sample_transpose.cuh"

void transpose_no_bank_conflicts(float* odata, const float* idata, std::int64_t width, std::int64_t height, cudaStream_t stream) {
  launch(transposeNoBankConflicts, odata, idata, width, height, stream);
}
