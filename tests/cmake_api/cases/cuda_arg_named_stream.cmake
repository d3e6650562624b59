# EXPECT: kernel_opt_add_kernel\(gemm\): ARGS name 'stream' is the name of a CUDA entry point's last parameter
# NEEDS: CUDA
enable_language(CXX)
enable_language(CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80 90)
foreach(name IN ITEMS headers harness bench cuda)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
add_executable(KernelOpt::kopt IMPORTED)
set_target_properties(KernelOpt::kopt PROPERTIES IMPORTED_LOCATION /bin/true)
kernel_opt_add_kernel(gemm
  ARGS "in stream f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp REFERENCE_BACKEND host)
