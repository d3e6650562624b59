# Test registration, run by _kernel_opt_finalize (Generate.cmake): the
# <k>.correct.<impl> tests, the optional <k>.bench.<impl> tests, and the loop
# targets (optimize-<k>, the <k>.perf test). The static tests are in
# Static.cmake, profile-<k> in Profile.cmake.

# CTest finds the generated tests without the consumer's enable_testing():
# testing is enabled in the directory that declares a kernel and in every
# directory above it up to the top level (ctest reads each one's
# CTestTestfile.cmake on its way down), at the end of each directory, as
# enable_testing() there would. BUILD_TESTING=OFF (include(CTest)) is
# respected: the tests are then declared but ctest does not see them.
function(_kernel_opt_enable_testing)
  if(DEFINED BUILD_TESTING AND NOT BUILD_TESTING)
    return()
  endif()
  set(dir "${CMAKE_CURRENT_SOURCE_DIR}")
  while(NOT dir STREQUAL "")
    get_property(done DIRECTORY "${dir}" PROPERTY _KERNEL_OPT_TESTING)
    if(done)
      break()
    endif()
    set_property(DIRECTORY "${dir}" PROPERTY _KERNEL_OPT_TESTING TRUE)
    cmake_language(DEFER DIRECTORY "${dir}" CALL enable_testing)
    get_property(dir DIRECTORY "${dir}" PROPERTY PARENT_DIRECTORY)
  endwhile()
endfunction()

# One CTest process per implementation: a fault or a hang fails only its own test.
function(_kernel_opt_correctness_tests kernel)
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_get(backend ${kernel} BACKEND)
  _kernel_opt_get(ref_backend ${kernel} REFERENCE_BACKEND)
  _kernel_opt_get(variants ${kernel} VARIANTS)
  _kernel_opt_get(baselines ${kernel} BASELINES)
  _kernel_opt_get(timeout ${kernel} TIMEOUT)
  foreach(name IN LISTS variants baselines)
    # Its host threads are bounded, and CTest counts them against -j.
    add_test(NAME ${kernel}.correct.${name}
      COMMAND ${kernel}_kopt_test --gtest_filter=${name}.*
              --kopt_results=${bin}/results/correct.${name}.json
              --kopt_threads=${KernelOpt_REFERENCE_THREADS})
    set_tests_properties(${kernel}.correct.${name} PROPERTIES
      LABELS "kernel-opt;correctness;${kernel}"
      SKIP_RETURN_CODE 77
      TIMEOUT ${timeout}
      PROCESSORS ${KernelOpt_REFERENCE_THREADS}
      ENVIRONMENT "OMP_NUM_THREADS=${KernelOpt_REFERENCE_THREADS}")
    # GoogleTest's marker of a failed trial.
    _kernel_opt_expect_failure(${kernel}.correct.${name} ${kernel} ${name} "\\[  FAILED  \\]")
    if(backend STREQUAL "cuda" OR ref_backend STREQUAL "cuda")
      _kernel_opt_gpu_test(${kernel}.correct.${name} ${kernel} SHARED)
    endif()
  endforeach()
endfunction()

# <k>.bench.<impl> (KernelOpt_BENCH_TESTS): one benchmark process per
# variant and baseline, its JSON in results/bench.<impl>.json.
function(_kernel_opt_bench_tests kernel)
  if(NOT KernelOpt_BENCH_TESTS)
    return()
  endif()
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_get(variants ${kernel} VARIANTS)
  _kernel_opt_get(baselines ${kernel} BASELINES)
  _kernel_opt_get(timeout ${kernel} TIMEOUT)
  set(ceilings "")
  if(NOT "${KernelOpt_CEILINGS}" STREQUAL "")
    set(ceilings "--kopt_ceilings=${KernelOpt_CEILINGS}")
  endif()
  foreach(name IN LISTS variants baselines)
    add_test(NAME ${kernel}.bench.${name}
      COMMAND ${kernel}_kopt_bench "--benchmark_filter=^${kernel}/${name}/"
              "--benchmark_out=${bin}/results/bench.${name}.json" --benchmark_out_format=json ${ceilings})
    set_tests_properties(${kernel}.bench.${name} PROPERTIES
      LABELS "kernel-opt;bench;${kernel}"
      SKIP_RETURN_CODE 77
      TIMEOUT ${timeout})
    _kernel_opt_timing_test(${kernel}.bench.${name} ${kernel})
    # The benchmark's summary line when a row failed (bench/driver.cpp).
    _kernel_opt_expect_failure(${kernel}.bench.${name} ${kernel} ${name}
      "kopt bench: [0-9]+ of [0-9]+ benchmarks failed")
    _kernel_opt_expect_failure(${kernel}.bench.${name} ${kernel} ${name}
      "kopt bench: [0-9]+ of [0-9]+ benchmarks failed" EXPECT_BENCH_FAILURE)
  endforeach()
endfunction()

# A test of an implementation declared EXPECT_FAILURE <regex> passes only
# when the implementation fails as declared: its output has a report that
# matches <regex>, followed by <failed> (the executable's marker of a failed
# check). CTest fails it on anything else: a pass (no report, no marker), a
# signal (crash), a timeout, and, by FAIL_REGULAR_EXPRESSION, a sanitizer
# report or the benchmark's watchdog, whatever was printed before them.
# <keyword> (default EXPECT_FAILURE) is the declaration read:
# EXPECT_BENCH_FAILURE applies to the benchmark test only.
function(_kernel_opt_expect_failure test kernel impl failed)
  set(keyword EXPECT_FAILURE)
  if(ARGC GREATER 4)
    set(keyword "${ARGV4}")
  endif()
  _kernel_opt_get(expect_failure ${kernel} IMPL_${impl}_${keyword})
  if(expect_failure STREQUAL "")
    return()
  endif()
  set_tests_properties(${test} PROPERTIES
    PASS_REGULAR_EXPRESSION "${expect_failure}(.|\n)*${failed}"
    FAIL_REGULAR_EXPRESSION "SUMMARY: [A-Za-z]+Sanitizer;kopt bench: watchdog:")
  set_property(TEST ${test} APPEND PROPERTY LABELS expected-failure)
endfunction()

# A test that times: the whole GPU for CUDA kernels; for host kernels, the
# whole machine (RUN_SERIAL), since any other test would disturb the clock.
function(_kernel_opt_timing_test test kernel)
  _kernel_opt_get(backend ${kernel} BACKEND)
  if(backend STREQUAL "cuda")
    _kernel_opt_gpu_test(${test} ${kernel} WHOLE)
  else()
    set_property(TEST ${test} PROPERTY RUN_SERIAL TRUE)
  endif()
endfunction()

# optimize-<k> (one loop iteration) and the <k>.perf regression test.
function(_kernel_opt_loop_targets kernel)
  if(NOT TARGET KernelOpt::kopt)
    return()
  endif()
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  set(KernelOpt_OPTIMIZE_VARIANT_${kernel} "" CACHE STRING
    "Variant optimize-${kernel} records (empty: the newest one without a record)")
  set(variant_args "")
  if(NOT KernelOpt_OPTIMIZE_VARIANT_${kernel} STREQUAL "")
    # A declared variant name: _kernel_opt_check_variant_cache checked it.
    set(variant_args --variant "${KernelOpt_OPTIMIZE_VARIANT_${kernel}}")
  endif()
  add_custom_target(optimize-${kernel}
    COMMAND $<TARGET_FILE:KernelOpt::kopt> optimize --manifest "${bin}/manifest.json" ${variant_args} --build-target
    DEPENDS ${kernel}_kopt_test ${kernel}_kopt_bench KernelOpt::kopt
    USES_TERMINAL
    VERBATIM
    COMMENT "KernelOpt: one optimization iteration of ${kernel}")
  add_test(NAME ${kernel}.perf COMMAND $<TARGET_FILE:KernelOpt::kopt> perf --manifest "${bin}/manifest.json"
    --threshold ${KernelOpt_PERF_THRESHOLD} --missing ${KernelOpt_PERF_MISSING})
  _kernel_opt_get(timeout ${kernel} TIMEOUT)
  set_tests_properties(${kernel}.perf PROPERTIES
    LABELS "kernel-opt;perf;${kernel}"
    SKIP_RETURN_CODE 77
    TIMEOUT ${timeout})
  _kernel_opt_timing_test(${kernel}.perf ${kernel})
endfunction()

# _kernel_opt_skipped_test(<test> <reason>): a test that reports SKIPPED with
# <reason>, for an implementation this build does not compile.
function(_kernel_opt_skipped_test test reason)
  add_test(NAME ${test} COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: ${reason}")
  set_tests_properties(${test} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED: ")
endfunction()
