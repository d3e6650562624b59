# EXPECT: kernel_opt_add_kernel\(gemm\): DIMS entry 'tflops' is a name TARGET reads as a measurement DIMS: 'tflops N K'
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[tflops,K]" "in B f32[K,N]" "out C f32[tflops,N]"
  DIMS tflops N K
  SHAPES "tflops=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  )
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
