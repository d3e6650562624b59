# EXPECT: kernel_opt_add_kernel\(gemm\): INIT entry \"B=uniform\(0,1e6\)\": its values reach 1000000, beyond f16 \(-65504 to 65504\) INIT: 'B=uniform\(0,1e6\)' ARGS: 'in B f16\[K,N\]'
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f16[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  INIT "B=uniform(0,1e6)")
