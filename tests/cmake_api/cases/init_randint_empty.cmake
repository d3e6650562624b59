# EXPECT: kernel_opt_add_kernel\(gemm\): INIT entry \"A=randint\(5,5\)\": the range \[5, 5\) is empty INIT: 'A=randint\(5,5\)' Hint: randint\(lo,hi\) draws the integers from ceil\(lo\) to ceil\(hi\) - 1: hi is exclusive
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  INIT "A=randint(5,5)")
