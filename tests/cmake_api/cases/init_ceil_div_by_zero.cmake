# EXPECT: kernel_opt_add_kernel\(gemm\): malformed INIT entry "A=randint\(0,ceil_div\(M, 0\)\)": ceil_div by a literal zero
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  INIT "A=randint(0,ceil_div(M, 0))"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
