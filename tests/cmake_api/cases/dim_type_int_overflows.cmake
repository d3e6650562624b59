# EXPECT: kernel_opt_add_variant\(gemm\): variant .v1. has DIM_TYPE int, but QUICK_SHAPES entry "M=2147483648,N=2,K=2" sets M beyond INT_MAX DIM_TYPE: .int. QUICK_SHAPES: .M=2147483648,N=2,K=2. Hint: an int dimension is at most 2147483647
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=2147483647,N=2,K=2"
  QUICK_SHAPES "M=2147483648,N=2,K=2"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
kernel_opt_add_variant(gemm v1 SOURCES kernels.cpp ENTRY gemm_v1 DIM_TYPE int)
