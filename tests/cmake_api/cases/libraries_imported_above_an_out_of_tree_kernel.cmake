# CHECK: ../checks/libraries_imported_in_a_subdirectory.cmake
# The project imports a library at its top and adds, from a path outside
# its tree, the directory that declares the kernel and a variant linking
# it: the kernel's directory sees the target (it is below the top in
# CMake's directory tree, whatever the paths), so nothing is refused.
enable_language(CXX)
enable_testing()
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
add_executable(KernelOpt::kopt IMPORTED)
set_target_properties(KernelOpt::kopt PROPERTIES IMPORTED_LOCATION /bin/true)
add_library(Vendor::blas INTERFACE IMPORTED)
set(KOPT_CASE_KERNELS "${CMAKE_CURRENT_SOURCE_DIR}/kernels.cpp")
set(elsewhere "${CMAKE_CURRENT_BINARY_DIR}/../out_of_tree_kernel")
file(WRITE "${elsewhere}/CMakeLists.txt" [=[
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES ${KOPT_CASE_KERNELS})
kernel_opt_add_variant(gemm v0 SOURCES ${KOPT_CASE_KERNELS} ENTRY gemm_v0)
kernel_opt_add_variant(gemm v1 SOURCES ${KOPT_CASE_KERNELS} ENTRY gemm_v1 LIBRARIES Vendor::blas)
]=])
add_subdirectory("${elsewhere}" kernel)
