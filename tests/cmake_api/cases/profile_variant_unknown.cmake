# EXPECT: kernel_opt_add_kernel\(gemm\): KernelOpt_PROFILE_VARIANT_gemm names .v0 \$\(rm -rf x\)., not a variant or baseline of gemm KernelOpt_PROFILE_VARIANT_gemm: .v0;v0 \$\(rm -rf x\). Implementations: .v0.
set(KernelOpt_PROFILE_VARIANT_gemm "v0;v0 $(rm -rf x)" CACHE STRING "" FORCE)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
