# CHECK: ../checks/family_beside_switches.cmake
# A family (plain METHODS) and a variant with a switch in one kernel: the
# family's points are in the kernel's spec, not in the ablation executables'
# spec (a family has no switches; docs/ablation.md, docs/sweeps.md).
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
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0
  METHODS loop_interchange
  PARAMS "BM=16,32")
kernel_opt_add_variant(gemm v1 SOURCES kernels.cpp ENTRY gemm_v1 PARENT v0
  HYPOTHESIS "blocking: expect 2x"
  METHODS cache_blocking=KOPT_BLOCKED)
