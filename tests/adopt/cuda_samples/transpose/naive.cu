// Variant v0 of transpose: the sample's transposeNaive.
#include "sample_transpose.cuh"

void transpose_naive(float* odata, const float* idata, int width, int height) { launch(transposeNaive, odata, idata, width, height); }
