# EXPECT: kernel_opt_add_kernel\(gemm\): MAX_ITERATIONS 'ten' is not an integer from 1 to 99999
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp MAX_ITERATIONS ten)
