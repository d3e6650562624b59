# EXPECT: kernel_opt_add_kernel\(gemm\): BACKEND cuda needs the CUDA Toolkit, which was not found CMAKE_CUDA_COMPILER: '/nowhere/nvcc' Hint: install the CUDA Toolkit
# The CUDA language and KernelOpt's CUDA backend, but no CUDA::cudart and a
# find_package(CUDAToolkit) that finds nothing.
set(CMAKE_CUDA_COMPILER_LOADED 1)
set(CMAKE_CUDA_COMPILER /nowhere/nvcc)
set(CMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit TRUE)
add_library(KernelOpt::cuda INTERFACE IMPORTED)
kernel_opt_add_kernel(gemm
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp REFERENCE_BACKEND host)
