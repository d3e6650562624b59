# EXPECT: kernel_opt_add_kernel\(gemm\): KernelOpt_OPTIMIZE_VARIANT_gemm is not a variant of gemm KernelOpt_OPTIMIZE_VARIANT_gemm: .v0`touch pwned`\$\(touch pwned\). Variants: .v0, v1. Hint: set it to one declared variant
# A value that a shell would run, were it spliced into optimize-gemm's command.
set(KernelOpt_OPTIMIZE_VARIANT_gemm "v0`touch pwned`\$(touch pwned)" CACHE STRING "" FORCE)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
kernel_opt_add_variant(gemm v1 SOURCES kernels.cpp ENTRY gemm_v1 PARENT v0 HYPOTHESIS "faster")
