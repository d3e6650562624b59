# EXPECT: kernel_opt_add_kernel\(gemm\): SHAPES entry "M=4096,K=1" does not set dimension N DIMS: .M;N;K. Hint: every shape sets each of DIMS exactly once
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=4096,K=1"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
