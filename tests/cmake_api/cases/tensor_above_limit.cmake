# EXPECT: kernel_opt_add_kernel\(gemm\): ARGS entry "out C f32\[M,N\]" is 1125899906842624 bytes at QUICK_SHAPES entry "M=16777216,N=16777216,K=1", more than 281474976710656 .* Hint: a tensor holds at most 281474976710656 bytes \(2\^48\)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  QUICK_SHAPES "M=16777216,N=16777216,K=1"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
