# EXPECT: kernel_opt_add_variant\(gemm\): malformed PARAM_CONSTRAINTS entry of variant 'v0': ceil_div\(\) takes 2 arguments, not 1 PARAM_CONSTRAINTS: 'ceil_div\(BM\) >= 1'
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64" "M=128,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0
  PARAMS "BM=32,64" PARAM_CONSTRAINTS "ceil_div(BM) >= 1")
