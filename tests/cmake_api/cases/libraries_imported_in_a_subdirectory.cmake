# CHECK: ../checks/libraries_imported_in_a_subdirectory.cmake
# A subdirectory imports a library (as find_package does: visible in that
# directory only) and declares a variant that links it: the module is made
# where the kernel is declared, so the target is made global for it.
enable_language(CXX)
enable_testing()
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
add_executable(KernelOpt::kopt IMPORTED)
set_target_properties(KernelOpt::kopt PROPERTIES IMPORTED_LOCATION /bin/true)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
set(sub "${CMAKE_CURRENT_BINARY_DIR}/vendor_src")
file(WRITE "${sub}/CMakeLists.txt" [=[
add_library(Vendor::blas INTERFACE IMPORTED)
kernel_opt_add_variant(gemm v1 SOURCES ${KOPT_CASE_KERNELS} ENTRY gemm_v1 LIBRARIES Vendor::blas)
]=])
set(KOPT_CASE_KERNELS "${CMAKE_CURRENT_SOURCE_DIR}/kernels.cpp")
add_subdirectory("${sub}" vendor)
