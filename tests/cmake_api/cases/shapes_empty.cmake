# EXPECT: kernel_opt_add_kernel\(gemm\): keyword SHAPES needs a value SHAPES: ."".
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES ""
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
