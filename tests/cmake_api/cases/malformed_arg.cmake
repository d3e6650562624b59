# EXPECT: kernel_opt_add_kernel\(gemm\): malformed ARGS entry "in A" ARGS: .in A. Hint: write "<in\|out\|inout> <name> <dtype>\[<axis>,...\]"
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
