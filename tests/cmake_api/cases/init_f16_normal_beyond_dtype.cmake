# EXPECT: kernel_opt_add_kernel\(gemm\): INIT entry \"B=normal\(0,8000\)\": its values reach -68640 \(the mean plus or minus 8.58 standard deviations
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f16[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  INIT "B=normal(0,8000)")
