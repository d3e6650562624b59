# EXPECT: kernel_opt_add_kernel\(gemm\): INIT entry \"A=uniform\(0,1/\(M-64\)\)\": bound \"1/\(M-64\)\" divides by zero at shape M=64,N=64,K=64
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  INIT "A=uniform(0,1/(M-64))")
