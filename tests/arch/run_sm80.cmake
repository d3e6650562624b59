# Configures tests/arch/project for sm_80 and checks what configure says,
# builds the small kernel and gemm v3 (an sm_80 variant), and runs the small
# kernel's tests: v1 (90a only) must report SKIPPED with its reason.
file(REMOVE_RECURSE "${WORK_DIR}")
set(args -S "${SOURCE_DIR}" -B "${WORK_DIR}" -G "${GENERATOR}"
    "-DEXAMPLES_DIR=${EXAMPLES_DIR}" "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_BUILD_TYPE=Release"
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
    -DCMAKE_CUDA_ARCHITECTURES=80)
if(LAUNCHER)
  list(APPEND args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}" "-DCMAKE_CUDA_COMPILER_LAUNCHER=${LAUNCHER}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${args} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "configuring for sm_80 failed:\n${out}\n${err}")
endif()

# One message per variant that sm_80 cannot run, none for the others
# (';' read as ',': a ';' would split the matches into list items).
string(REPLACE ";" "," out "${out}")
foreach(expected IN ITEMS
    "gemm v5 is not built: needs CUDA_ARCHITECTURES 90a, this build targets CMAKE_CUDA_ARCHITECTURES 80"
    "gemm v6 is not built: needs CUDA_ARCHITECTURES 90a"
    "softmax v3 is not built: needs MIN_COMPUTE_CAPABILITY 9.0"
    "softmax_bf16 v3 is not built: needs MIN_COMPUTE_CAPABILITY 9.0"
    "tiny v1 is not built: needs CUDA_ARCHITECTURES 90a")
  string(REGEX MATCHALL "KernelOpt: ${expected}" found "${out}")
  list(LENGTH found count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected one message 'KernelOpt: ${expected}', found ${count}:\n${out}")
  endif()
endforeach()
string(REGEX MATCHALL "KernelOpt: [a-z_0-9]+ [a-z0-9]+ is not built" all "${out}")
list(LENGTH all count)
if(NOT count EQUAL 5)
  message(FATAL_ERROR "expected 5 'is not built' messages, found ${count}:\n${out}")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}" --target tiny_kopt_test gemm_kopt_v3
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "building for sm_80 failed:\n${out}\n${err}")
endif()

# tiny.correct.v1 and tiny.static.v1 skip with the reason, GPU or not.
foreach(test IN ITEMS tiny.correct.v1 tiny.static.v1)
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" -V -R "^${test}$" WORKING_DIRECTORY "${WORK_DIR}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT out MATCHES "SKIPPED: not built: needs CUDA_ARCHITECTURES 90a; this build targets CMAKE_CUDA_ARCHITECTURES 80"
     OR NOT out MATCHES "Not Run|Skipped")
    message(FATAL_ERROR "${test} did not report SKIPPED with the reason:\n${out}\n${err}")
  endif()
endforeach()
message(STATUS "sm_80: 5 variants skipped with the reason, tiny and gemm v3 built")
