# CHECK: ../checks/build_context_in_manifest.cmake
# What the variant's compiler gets beyond SOURCES and COMPILE_OPTIONS
# reaches the manifest's build_context (the source hash covers it): the
# directory's and the target's definitions and options, a library's
# interface ones, and the include directories in the source tree, not
# those outside it; text that looks like a generator expression stays text.
enable_language(CXX)
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
include_directories(${CMAKE_CURRENT_SOURCE_DIR}/inc /opt/outside/include)
add_compile_definitions(KNOB2=4 "QUOTED=\"x\"" "$<$<CONFIG:Release>:REL>")
add_compile_options(-fno-fast-math)
add_library(knobs INTERFACE)
target_compile_definitions(knobs INTERFACE FROM_LIBRARY=1)
target_include_directories(knobs INTERFACE $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/lib_inc>)
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0 LIBRARIES knobs COMPILE_OPTIONS -O2)
kernel_opt_add_variant(gemm v1 SOURCES kernels.cpp ENTRY gemm_v1 PARENT v0
  HYPOTHESIS "text like $<1:an expression> stays text: expect 1% faster")
