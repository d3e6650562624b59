# EXPECT: kernel_opt_add_kernel\(gemm\): ARGS entry "in A f32\[M/0,K\]": malformed axis "M/0": division by a literal zero
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M/0,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
