# ctest, run at the top of the build of testing_enabled (a project without
# enable_testing()), lists the tests of both kernels.
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" -N WORKING_DIRECTORY "${WORK_DIR}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
foreach(test IN ITEMS gemm.correct.v0 inner.correct.v0)
  if(NOT out MATCHES "${test}")
    message(FATAL_ERROR "ctest -N does not list ${test}:\n${out}${err}")
  endif()
endforeach()
message(STATUS "ctest finds the generated tests without enable_testing()")
