# EXPECT: kernel_opt_add_kernel\(gemm\): unknown argument .SHAPE. Read as a value of: .SHAPES. Hint: check the spelling
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64" SHAPE "M=1,N=1,K=1"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
