# EXPECT: kernel_opt_add_kernel\(gemm\): INIT entry \"I=uniform\(0,10\)\": 'I' is i32, an integer type: it takes randint\(lo,hi\) INIT: 'I=uniform\(0,10\)' ARGS: 'in I i32\[M\]'
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in I i32[M]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  INIT "I=uniform(0,10)")
