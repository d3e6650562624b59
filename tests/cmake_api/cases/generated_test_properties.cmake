# CHECK: ../checks/generated_test_properties.cmake
# What the generated tests declare to CTest: bounded host threads on every
# correctness test, and the expected failure on every test of an
# implementation declared EXPECT_FAILURE (correctness and benchmark), on
# the benchmark test alone for EXPECT_BENCH_FAILURE;
# KernelOpt_PERF_MISSING reaches the perf test's command.
enable_language(CXX)
enable_testing()
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
# kopt, so that the loop targets and <k>.perf are generated too.
add_executable(KernelOpt::kopt IMPORTED)
set_target_properties(KernelOpt::kopt PROPERTIES IMPORTED_LOCATION /bin/true)
set(KernelOpt_PERF_MISSING fail CACHE STRING "" FORCE)
set(KernelOpt_REFERENCE_THREADS 3 CACHE STRING "" FORCE)
set(KernelOpt_BENCH_TESTS ON)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
kernel_opt_add_variant(gemm v1 SOURCES kernels.cpp ENTRY gemm_v0 PARENT v0 HYPOTHESIS "none"
  EXPECT_FAILURE "elements mismatch")
kernel_opt_add_variant(gemm v2 SOURCES kernels.cpp ENTRY gemm_v0 PARENT v0 HYPOTHESIS "caches"
  EXPECT_BENCH_FAILURE "content_cached")
kernel_opt_add_baseline(gemm vendor SOURCES kernels.cpp ENTRY gemm_v0 EXPECT_FAILURE "never written")
