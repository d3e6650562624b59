# EXPECT: kernel_opt_add_kernel\(gemm\): ENTRY .gemm_ref. of the reference is not defined in its sources
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_ref REFERENCE_SOURCES kernels.cpp)
