# EXPECT: kernel_opt_add_kernel\(gemm_ablate\): the target gemm_ablate_kopt_test exists already
enable_language(CXX)
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
foreach(kernel IN ITEMS gemm gemm_ablate)
  kernel_opt_add_kernel(${kernel} BACKEND host
    ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
    DIMS M N K
    SHAPES "M=64,N=64,K=64"
    REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
endforeach()
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0 METHODS cache_blocking=KOPT_BLOCKED)
kernel_opt_add_variant(gemm_ablate v0 SOURCES kernels.cpp ENTRY gemm_v0)
