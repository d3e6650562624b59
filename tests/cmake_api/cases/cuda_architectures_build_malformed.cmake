# NEEDS: CUDA
# EXPECT: kernel_opt_add_kernel\(gemm\): CMAKE_CUDA_ARCHITECTURES entry .sm_90. is not an architecture CMAKE_CUDA_ARCHITECTURES: .80.sm_90. Hint: e.g. 80, 90a
enable_language(CXX)
enable_language(CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80 sm_90)
add_library(KernelOpt::cuda INTERFACE IMPORTED)  # as a KernelOpt built with CUDA provides
kernel_opt_add_kernel(gemm
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp REFERENCE_BACKEND host)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0 MIN_COMPUTE_CAPABILITY 8.0)
