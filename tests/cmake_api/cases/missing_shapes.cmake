# EXPECT: kernel_opt_add_kernel\(gemm\): missing required keyword SHAPES
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
