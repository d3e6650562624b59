# EXPECT: kernel_opt_add_kernel\(gemm\): INIT entry \"U=randint\(0,M\)\": its values reach 299, beyond u8 \(0 to 255\) at shape M=300,N=64,K=64
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in U u8[M]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64" "M=300,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  INIT "U=randint(0,M)")
