# CHECK: ../checks/records_dir_normalized.cmake
# A RECORDS path with ".." reaches the manifest normalized: kopt refuses a
# records_dir with ".." components.
enable_language(CXX)
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  RECORDS "sub/../../records")
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
