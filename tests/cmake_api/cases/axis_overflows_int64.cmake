# EXPECT: kernel_opt_add_kernel\(gemm\): ARGS entry "in A f32\[n\*99999999999999999\]": axis "n\*99999999999999999" overflows int64 at SHAPES entry "n=1000" ARGS: .in A f32\[n\*99999999999999999\]. SHAPES: .n=1000.
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[n*99999999999999999]" "out C f32[n]"
  DIMS n
  SHAPES "n=1000"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
