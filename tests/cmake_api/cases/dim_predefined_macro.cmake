# EXPECT: kernel_opt_add_kernel\(gemm\): DIMS entry 'unix' is a C\+\+ keyword or a macro the compilers predefine
enable_language(CXX)
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
add_executable(KernelOpt::kopt IMPORTED)
set_target_properties(KernelOpt::kopt PROPERTIES IMPORTED_LOCATION /bin/true)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[unix,K]" "in B f32[K,N]" "out C f32[unix,N]"
  DIMS unix N K
  SHAPES "unix=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
