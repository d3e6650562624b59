# EXPECT: kernel_opt_add_variant\(gemm\): LIBRARIES entry 'Vendor::blas' is an imported target that the directory of kernel 'gemm' does not see
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
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
# vendor/ imports the library; vendor/kernels/ declares a variant linking it.
set(KOPT_CASE_KERNELS "${CMAKE_CURRENT_SOURCE_DIR}/kernels.cpp")
set(vendor "${CMAKE_CURRENT_BINARY_DIR}/vendor_src")
file(WRITE "${vendor}/CMakeLists.txt" [=[
add_library(Vendor::blas INTERFACE IMPORTED)
add_subdirectory(kernels)
]=])
file(WRITE "${vendor}/kernels/CMakeLists.txt" [=[
kernel_opt_add_variant(gemm v1 SOURCES ${KOPT_CASE_KERNELS} ENTRY gemm_v1 LIBRARIES Vendor::blas)
]=])
add_subdirectory("${vendor}" vendor)
