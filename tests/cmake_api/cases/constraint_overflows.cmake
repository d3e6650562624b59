# EXPECT: kernel_opt_add_variant\(gemm\): PARAM_CONSTRAINTS entry of variant 'v0' cannot be evaluated exactly at point v0_p0: \"BM\^20\" overflows int64
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64" "M=128,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0
  PARAMS "BM=32,64" PARAM_CONSTRAINTS "BM^20 > 0")
