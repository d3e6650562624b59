// Variant v3 of transpose: the sample's transposeDiagonal.
#include "sample_transpose.cuh"

void transpose_diagonal(float* odata, const float* idata, int width, int height) { launch(transposeDiagonal, odata, idata, width, height); }
