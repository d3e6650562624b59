# EXPECT: kernel_opt_add_variant\(gemm\): variant name .v.1. is not a valid identifier
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
string(ASCII 27 esc)
kernel_opt_add_variant(gemm "v${esc}1" SOURCES kernels.cpp ENTRY gemm_v0)
