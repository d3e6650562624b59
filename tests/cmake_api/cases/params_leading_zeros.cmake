# EXPECT: kernel_opt_add_variant\(gemm\): PARAMS entry \"X=7,-3,007\" of variant 'v0' lists '007' twice \('007' is 7\)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0
  PARAMS "X=7,-3,007")
