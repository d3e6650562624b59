# CHECK: ../checks/testing_enabled.cmake
# The project calls no enable_testing(): declaring a kernel enables testing
# from its directory up to the top, so ctest finds the tests of a kernel
# declared at the top and of one declared two directories down.
enable_language(CXX)
add_executable(KernelOpt::kopt IMPORTED)
set_target_properties(KernelOpt::kopt PROPERTIES IMPORTED_LOCATION /bin/true)
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
add_subdirectory("${CMAKE_CURRENT_LIST_DIR}/../checks/testing_subdir" testing_subdir)
