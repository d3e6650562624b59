# EXPECT: kernel_opt_add_kernel\(gemm\): ARGS entry "out C f32\[M-100\]": axis "M-100" is -36 at SHAPES entry "M=64"
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M]" "out C f32[M-100]"
  DIMS M
  SHAPES "M=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
