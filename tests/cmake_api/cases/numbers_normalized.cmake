# CHECK: ../checks/numbers_normalized.cmake
# Numbers reach the generated C++ and the manifest in one canonical form
# (08 is no C++ literal; 010 would be 8 in C++ and 10 in JSON).
enable_language(CXX)
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  SEEDS 010 08 0
  TOLERANCE RTOL 08 ATOL .5E-03 MAX_REL_L2 123456789012345678901
  TIMING MIN_SAMPLES 010 MIN_TIME 09 MAX_NOISE .0100 MAX_TIME 1E+02
  TIMEOUT 0600)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
