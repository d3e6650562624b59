# CHECK: ../checks/constraints_exact.cmake
# PARAM_CONSTRAINTS evaluated exactly (fractions, exact square roots, a
# guard before a modulo), and expressions at the evaluator's nesting limit.
enable_language(CXX)
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
add_executable(KernelOpt::kopt IMPORTED)
set_target_properties(KernelOpt::kopt PROPERTIES IMPORTED_LOCATION /bin/true)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  FLOPS "(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((M)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"
  BYTES "2*--------------------------------------------------------------------------------------------------M")
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0
  PARAMS "BM=32,64,96" PARAM_CONSTRAINTS "BM/64 >= 1")
kernel_opt_add_variant(gemm v1 SOURCES kernels.cpp ENTRY gemm_v0
  PARAMS "BM=32,64,128" PARAM_CONSTRAINTS "BM <= sqrt(M)*8")
kernel_opt_add_variant(gemm v2 SOURCES kernels.cpp ENTRY gemm_v0
  PARAMS "X=0,2,3" PARAM_CONSTRAINTS "X != 0" "M % X == 0")
kernel_opt_add_variant(gemm v3 SOURCES kernels.cpp ENTRY gemm_v0
  PARAMS "BM=32,64" PARAM_CONSTRAINTS "BM*3/4 == 48" "log2(BM) == 6")
