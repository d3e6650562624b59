# EXPECT: kernel_opt_add_kernel\(gemm\): SEEDS entry .123456789012345678901234. is beyond int64 SEEDS: .1;123456789012345678901234. Hint: a seed is at most 9223372036854775807
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  SEEDS 1 123456789012345678901234
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
