# EXPECT: kernel_opt_add_variant\(gemm\): METHODS entry .cache_blocking=KOPT_BLOCKED. of family .v0. ablates its point .v0_p1. into .v0_p1__no_cache_blocking., a declared implementation
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0
  METHODS loop_interchange cache_blocking=KOPT_BLOCKED
  PARAMS "BM=16,32")
kernel_opt_add_baseline(gemm v0_p1__no_cache_blocking SOURCES kernels.cpp ENTRY gemm_v1)
