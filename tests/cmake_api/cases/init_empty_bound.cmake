# EXPECT: kernel_opt_add_kernel\(gemm\): malformed INIT entry \"A=normal\(1,\)\": an empty bound
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  INIT "A=normal(1,)")
