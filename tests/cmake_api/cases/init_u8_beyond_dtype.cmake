# EXPECT: kernel_opt_add_kernel\(gemm\): INIT entry \"U=randint\(0,1000\)\": its values reach 999, beyond u8 \(0 to 255\) INIT: 'U=randint\(0,1000\)' ARGS: 'in U u8\[M\]'
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in U u8[M]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  INIT "U=randint(0,1000)")
