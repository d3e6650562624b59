# EXPECT: kernel_opt_add_kernel\(gemm\): DIMS entry 'speedup_vs_x' is a name TARGET reads as a measurement
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[speedup_vs_x,K]" "in B f32[K,N]" "out C f32[speedup_vs_x,N]"
  DIMS speedup_vs_x N K
  SHAPES "speedup_vs_x=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  )
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
