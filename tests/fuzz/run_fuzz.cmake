# cmake -DFUZZER=<exe> -DTARGET=<name> -DROOT=<source root> -DWORK=<dir>
#       -DSECONDS=<n> [-DEXTRA=<libFuzzer flags>] -P run_fuzz.cmake
# Runs one fuzz target for SECONDS over a fresh corpus seeded with the
# target's seeds and committed regression inputs (targets.cmake). A crash,
# leak, timeout or sanitizer report fails; libFuzzer writes the input that
# caused it under WORK/artifacts/ (copy it to tests/fuzz/regressions/TARGET/).
include(${CMAKE_CURRENT_LIST_DIR}/targets.cmake)
foreach(var FUZZER TARGET ROOT WORK SECONDS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_fuzz.cmake: -D${var}=... missing")
  endif()
endforeach()
_kernel_opt_fuzz_seeds(seeds ${TARGET} ${ROOT})
file(GLOB regressions ${ROOT}/tests/fuzz/regressions/${TARGET}/*)
file(REMOVE_RECURSE ${WORK}/corpus)
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
set(n 0)
foreach(file IN LISTS seeds regressions)
  math(EXPR n "${n} + 1")
  get_filename_component(name ${file} NAME)
  configure_file(${file} ${WORK}/corpus/${n}_${name} COPYONLY)
endforeach()
separate_arguments(extra UNIX_COMMAND "${EXTRA}")
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -max_len=1048576
          -print_final_stats=1 -artifact_prefix=${WORK}/artifacts/ ${extra} ${WORK}/corpus
  WORKING_DIRECTORY ${WORK}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz_${TARGET}: exit ${rc}; the input is under ${WORK}/artifacts/")
endif()
