// Baseline of transpose_copy: the sample's copySharedMem.
#include "sample_transpose.cuh"

void copy_shared_mem(float* odata, const float* idata, int width, int height) { launch(copySharedMem, odata, idata, width, height); }
