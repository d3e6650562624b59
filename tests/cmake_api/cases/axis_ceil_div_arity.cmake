# EXPECT: kernel_opt_add_kernel\(gemm\): ARGS entry "in A f32\[ceil_div\(M\),K\]": malformed axis "ceil_div\(M\)": ceil_div\(\) takes 2 arguments, not 1
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[ceil_div(M),K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
