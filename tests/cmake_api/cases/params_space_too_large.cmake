# EXPECT: kernel_opt_add_variant\(gemm\): PARAMS of variant 'v0' span more than 10000 combinations
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0
  PARAMS "A=1,2,3,4,5,6,7,8,9,10" "B=1,2,3,4,5,6,7,8,9,10" "C=1,2,3,4,5,6,7,8,9,10" "D=1,2,3,4,5,6,7,8,9,10,11")
