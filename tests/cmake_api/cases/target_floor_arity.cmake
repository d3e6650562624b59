# EXPECT: kernel_opt_add_kernel\(gemm\): malformed TARGET: floor\(\) takes 1 argument, not 2 TARGET: 'floor\(tflops, 2\) >= 1'
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp FLOPS "2*M*N*K" TARGET "floor(tflops, 2) >= 1")
