# EXPECT: kernel_opt_add_kernel\(gemm\): DIMS entry 'time_us' is a name TARGET reads as a measurement
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,time_us]" "out C f32[M,time_us]"
  DIMS M time_us K
  SHAPES "M=64,time_us=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  )
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
