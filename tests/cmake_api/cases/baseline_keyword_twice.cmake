# EXPECT: kernel_opt_add_baseline\(gemm\): keyword DIM_TYPE is given twice DIM_TYPE: .int. DIM_TYPE: .int64.
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
kernel_opt_add_baseline(gemm other SOURCES kernels.cpp ENTRY gemm_v1 DIM_TYPE int DIM_TYPE int64)
