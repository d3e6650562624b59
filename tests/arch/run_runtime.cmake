# On a GPU: a variant whose device code cannot run on the device skips at
# run time with the reason, and `native` builds code that runs.
#   1. Configures tests/arch/project for one real architecture the device
#      cannot run (80-real: SASS only, no PTX to JIT; 75-real on an 8.x
#      device), builds tiny v0 and runs tiny.correct.v0: SKIPPED, "built for
#      CUDA architectures <arch>, which cannot run on this device".
#   2. Configures it for `native`, builds tiny v0 and runs tiny.correct.v0:
#      passes.
# Without a GPU (nvidia-smi missing or listing none) it prints SKIPPED.
find_program(nvidia_smi nvidia-smi)
set(cc "")
if(nvidia_smi)
  execute_process(COMMAND "${nvidia_smi}" --query-gpu=compute_cap --format=csv,noheader
                  RESULT_VARIABLE status OUTPUT_VARIABLE cc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT status EQUAL 0)
    set(cc "")
  endif()
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" cc "${cc}")
endif()
if(cc STREQUAL "")
  message("SKIPPED: no GPU (nvidia-smi lists none): the run-time architecture check needs a device")
  return()
endif()
if(cc MATCHES "^8\\.")
  set(foreign 75-real)
else()
  set(foreign 80-real)
endif()

function(configure_build_run dir archs)
  file(REMOVE_RECURSE "${dir}")
  set(args -S "${SOURCE_DIR}" -B "${dir}" -G "${GENERATOR}"
      "-DEXAMPLES_DIR=${EXAMPLES_DIR}" "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_BUILD_TYPE=Release"
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
      "-DCMAKE_CUDA_ARCHITECTURES=${archs}")
  if(LAUNCHER)
    list(APPEND args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}" "-DCMAKE_CUDA_COMPILER_LAUNCHER=${LAUNCHER}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" ${args} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "configuring for ${archs} failed:\n${out}\n${err}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${dir}" --target tiny_kopt_test tiny_kopt_v0
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "building tiny for ${archs} failed:\n${out}\n${err}")
  endif()
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" -V -R "^tiny\\.correct\\.v0$" WORKING_DIRECTORY "${dir}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(run_status ${status} PARENT_SCOPE)
  set(run_out "${out}${err}" PARENT_SCOPE)
endfunction()

configure_build_run("${WORK_DIR}/foreign" "${foreign}")
if(NOT run_out MATCHES "built for CUDA architectures ${foreign}, which cannot run on this device \\(compute capability ${cc}\\)"
   OR NOT run_out MATCHES "Skipped|Not Run")
  message(FATAL_ERROR "tiny.correct.v0 built for ${foreign} did not skip with the reason on a ${cc} device:\n${run_out}")
endif()

configure_build_run("${WORK_DIR}/native" native)
if(NOT run_status EQUAL 0 OR NOT run_out MATCHES "100% tests passed" OR run_out MATCHES "Skipped|Not Run")
  message(FATAL_ERROR "tiny.correct.v0 built for native did not pass on the ${cc} device:\n${run_out}")
endif()
message(STATUS "compute capability ${cc}: built for ${foreign}, tiny.correct.v0 skipped with the reason; "
               "built for native, it passed")
