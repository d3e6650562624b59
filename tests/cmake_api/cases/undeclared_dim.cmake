# EXPECT: kernel_opt_add_kernel\(gemm\): ARGS entry "in B f32\[K,Q\]" uses undeclared dim .Q. DIMS: .M;N;K. Hint: add .Q. to DIMS
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,Q]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
