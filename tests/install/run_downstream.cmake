# Configures and builds tests/install/downstream, then either runs its tests
# (EXPECT_BUILD=success) or checks that the build failed with EXPECT_REGEX.
file(REMOVE_RECURSE "${WORK_DIR}")
set(configure_args -S "${SOURCE_DIR}" -B "${WORK_DIR}" -G "${GENERATOR}"
    "-DMODE=${MODE}" "-DMISMATCH=${MISMATCH}" "-DWITH_CUDA=${WITH_CUDA}"
    "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DKERNELOPT_SOURCE_DIR=${KERNELOPT_SOURCE_DIR}"
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_BUILD_TYPE=Release")
if(WITH_CUDA)
  list(APPEND configure_args "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}" "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES}")
endif()
if(LAUNCHER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}" "-DCMAKE_CUDA_COMPILER_LAUNCHER=${LAUNCHER}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${configure_args} RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "configuring the downstream project failed:\n${out}\n${err}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}" RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(EXPECT_BUILD STREQUAL "failure")
  if(status EQUAL 0)
    message(FATAL_ERROR "the downstream build succeeded; it should have failed with: ${EXPECT_REGEX}")
  endif()
  string(REGEX REPLACE "[ \n\t]+" " " flat "${out} ${err}")
  if(NOT flat MATCHES "${EXPECT_REGEX}")
    message(FATAL_ERROR "the build failed, but not with the expected message.\nexpected (regex): ${EXPECT_REGEX}\noutput:\n${out}\n${err}")
  endif()
  message(STATUS "the build failed as expected")
  return()
endif()
if(NOT status EQUAL 0)
  message(FATAL_ERROR "building the downstream project failed:\n${out}\n${err}")
endif()
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --output-on-failure --no-tests=error -L kernel-opt -LE perf
                WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the downstream project's tests failed")
endif()
