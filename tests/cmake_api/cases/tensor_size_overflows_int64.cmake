# EXPECT: kernel_opt_add_kernel\(gemm\): ARGS entry "in A f64\[M,K\]": the tensor.s size overflows int64 at SHAPES entry "M=4294967296,N=1,K=4294967296"
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f64[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64" "M=4294967296,N=1,K=4294967296"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
