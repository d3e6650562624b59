# EXPECT: kernel_opt_add_kernel\(gemm\): DIMS entry '_M' is reserved by the C\+\+ standard
enable_language(CXX)
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
add_executable(KernelOpt::kopt IMPORTED)
set_target_properties(KernelOpt::kopt PROPERTIES IMPORTED_LOCATION /bin/true)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[_M,K]" "in B f32[K,N]" "out C f32[_M,N]"
  DIMS _M N K
  SHAPES "_M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
