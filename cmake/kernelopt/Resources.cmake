# How the generated tests share GPUs under `ctest -j` (docs/multi-gpu.md).
#
# Each GPU is one CTest resource of type "gpus" with KernelOpt_GPU_SLOTS
# slots. A correctness test asks for one slot, so up to that many share a
# GPU; a benchmark or perf test asks for every slot, so it has its GPU alone
# and two never time on one GPU at once. CTest tells each test its GPU in
# CTEST_RESOURCE_GROUP_0_GPUS, which the harness reads.
#
# KernelOpt_RESOURCE_SPEC says where the resource spec comes from:
#   generated  (CMake >= 3.28, the default there) the test kernelopt.gpus runs
#              `kopt resources` at test time as a fixture of every GPU test
#              and ctest schedules from the file it wrote: `ctest -j N` alone
#              uses every GPU of the machine
#   file       (the default before 3.28) tests declare RESOURCE_GROUPS; pass
#              `ctest --resource-spec-file F` with F from `kopt resources`
#              (without it ctest ignores the groups and every test gets GPU 0)
#   none       no RESOURCE_GROUPS
# Whatever the mode, a benchmark also takes an exclusive lock on its GPU
# (framework/src/cuda/gpu_claim.hpp), so timings stay clean even when ctest
# runs without a spec.

if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.28)
  set(_kernel_opt_default_spec generated)
else()
  set(_kernel_opt_default_spec file)
endif()
set(KernelOpt_GPU_SLOTS 4 CACHE STRING
  "CTest slots per GPU: a correctness test takes 1, a benchmark or perf test all (docs/multi-gpu.md)")
set(KernelOpt_RESOURCE_SPEC ${_kernel_opt_default_spec} CACHE STRING
  "Where ctest's GPU resource spec comes from: generated (CMake >= 3.28), file, none")
set_property(CACHE KernelOpt_RESOURCE_SPEC PROPERTY STRINGS generated file none)
set(KernelOpt_BENCH_TESTS OFF CACHE BOOL
  "Generate a <k>.bench.<impl> test per variant and baseline (label bench; each takes a whole GPU)")

# _kernel_opt_resource_mode(<out> <kernel>): the checked mode.
function(_kernel_opt_resource_mode out kernel)
  if(NOT KernelOpt_GPU_SLOTS MATCHES "^[1-9][0-9]*$")
    _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "KernelOpt_GPU_SLOTS is not a positive integer"
      KEY KernelOpt_GPU_SLOTS "${KernelOpt_GPU_SLOTS}"
      HINT "slots per GPU, e.g. -DKernelOpt_GPU_SLOTS=4 (docs/multi-gpu.md)")
  endif()
  set(mode "${KernelOpt_RESOURCE_SPEC}")
  if(NOT mode MATCHES "^(generated|file|none)$")
    _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "KernelOpt_RESOURCE_SPEC must be generated, file or none"
      KEY KernelOpt_RESOURCE_SPEC "${mode}")
  endif()
  if(mode STREQUAL "generated" AND CMAKE_VERSION VERSION_LESS 3.28)
    _kernel_opt_fail(kernel_opt_add_kernel ${kernel}
      "KernelOpt_RESOURCE_SPEC=generated needs CMake 3.28 (GENERATED_RESOURCE_SPEC_FILE)"
      KEY CMAKE_VERSION "${CMAKE_VERSION}"
      HINT "use -DKernelOpt_RESOURCE_SPEC=file and ctest --resource-spec-file (docs/multi-gpu.md)")
  endif()
  if(mode STREQUAL "generated" AND NOT TARGET KernelOpt::kopt)
    set(mode file)  # nothing to generate the spec with
  endif()
  set(${out} ${mode} PARENT_SCOPE)
endfunction()

# The test that writes the spec: once per project, a fixture of every GPU test.
function(_kernel_opt_spec_test)
  get_property(done GLOBAL PROPERTY _KERNEL_OPT_SPEC_TEST)
  if(done)
    return()
  endif()
  set_property(GLOBAL PROPERTY _KERNEL_OPT_SPEC_TEST TRUE)
  set(spec "${CMAKE_BINARY_DIR}/kernelopt/gpus.json")
  add_test(NAME kernelopt.gpus
    COMMAND $<TARGET_FILE:KernelOpt::kopt> resources --out "${spec}" --slots ${KernelOpt_GPU_SLOTS})
  set_tests_properties(kernelopt.gpus PROPERTIES
    LABELS "kernel-opt;resources"
    FIXTURES_SETUP kernelopt.gpus
    GENERATED_RESOURCE_SPEC_FILE "${spec}")
endfunction()

# _kernel_opt_gpu_test(<test> <kernel> SHARED|WHOLE): the test's RESOURCE_GROUPS.
function(_kernel_opt_gpu_test test kernel share)
  _kernel_opt_resource_mode(mode ${kernel})
  if(mode STREQUAL "none")
    return()
  endif()
  if(share STREQUAL "WHOLE")
    set(groups "gpus:${KernelOpt_GPU_SLOTS}")
  else()
    set(groups "gpus:1")
  endif()
  set_property(TEST ${test} PROPERTY RESOURCE_GROUPS "${groups}")
  if(mode STREQUAL "generated")
    _kernel_opt_spec_test()
    set_property(TEST ${test} APPEND PROPERTY FIXTURES_REQUIRED kernelopt.gpus)
  endif()
endfunction()
