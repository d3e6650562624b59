// Variant v2 of transpose: the sample's transposeNoBankConflicts.
#include "sample_transpose.cuh"

void transpose_no_bank_conflicts(float* odata, const float* idata, int width, int height) { launch(transposeNoBankConflicts, odata, idata, width, height); }
