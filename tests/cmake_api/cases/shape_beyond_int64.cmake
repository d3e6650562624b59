# EXPECT: kernel_opt_add_kernel\(gemm\): SHAPES entry "M=99999999999999999999,N=1,K=1" sets dimension M beyond int64 SHAPES: .M=99999999999999999999,N=1,K=1. Hint: a dimension is passed as int64_t
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=99999999999999999999,N=1,K=1"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
