// Entry points named by the cases (never compiled: the cases stop at configure).
void gemm_v0(const float*, const float*, float*, long, long, long) {}
void gemm_v1(const float*, const float*, float*, long, long, long) {}
void gemm_reference(const float*, const float*, float*, long, long, long) {}
