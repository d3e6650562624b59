__device__ float rdc_times_three(float v) { return 3.0f * v; }
