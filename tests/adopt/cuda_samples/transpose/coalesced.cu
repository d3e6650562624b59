// Variant v1 of transpose: the sample's transposeCoalesced.
#include "sample_transpose.cuh"

void transpose_coalesced(float* odata, const float* idata, int width, int height) { launch(transposeCoalesced, odata, idata, width, height); }
