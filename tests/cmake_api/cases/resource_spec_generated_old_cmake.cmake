# CMAKE_BELOW: 3.28
# EXPECT: kernel_opt_add_kernel\(gemm\): KernelOpt_RESOURCE_SPEC=generated needs CMake 3.28 \(GENERATED_RESOURCE_SPEC_FILE\) CMAKE_VERSION: .3\.[0-9.]+. Hint: use -DKernelOpt_RESOURCE_SPEC=file
set(KernelOpt_RESOURCE_SPEC generated CACHE STRING "" FORCE)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
