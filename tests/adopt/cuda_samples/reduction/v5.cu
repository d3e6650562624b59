// Variant v5 of reduction: the sample's kernel 5 (reduce5).
void sample_reduce(int which, const float* x, float* sum, int n);  // sample_reduce.cu
void reduction_v5(const float* x, float* sum, int n) { sample_reduce(5, x, sum, n); }
