# EXPECT: kernel_opt_add_variant\(gemm\): EXPECT_FAILURE of variant 'v0' is not a regular expression CTest can compile EXPECT_FAILURE: 'mismatch\(' CMake says: '[Ff]ailed to compile regex
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
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0 EXPECT_FAILURE "mismatch(")
