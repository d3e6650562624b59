# EXPECT: kernel_opt_add_kernel\(gemm\): TOLERANCE RTOL .1e999. is not a finite number TOLERANCE: .RTOL;1e999;ATOL;1e-3. Hint: RTOL must be a finite, non-negative number below 1e308
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp TOLERANCE RTOL 1e999 ATOL 1e-3)
