# NEEDS: CUDA
# CHECK: ../checks/family_not_built_here.cmake
# A CUDA family for 90a in a build for sm_80: no point target; the manifest
# gives each point's skip reason (the sweep records the build as skipped).
enable_language(CXX)
enable_language(CUDA)
enable_testing()
set(CMAKE_CUDA_ARCHITECTURES 80)
foreach(name IN ITEMS headers harness bench cuda)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
kernel_opt_add_kernel(gemm
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp REFERENCE_BACKEND host)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0 CUDA_ARCHITECTURES 90a PARAMS "BM=1,2")
