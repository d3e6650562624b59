# Configures project/ with one case and checks that the configure fails with
# the message the case expects (its "# EXPECT: <regex>" line), as CMake's
# RunCMake tests do.
file(STRINGS "${CASE_FILE}" expect_lines REGEX "^# EXPECT: ")
list(GET expect_lines 0 expected)
string(REGEX REPLACE "^# EXPECT: " "" expected "${expected}")
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${PROJECT_DIR}" -B "${WORK_DIR}"
          "-DCASE_FILE=${CASE_FILE}" "-DKOPT_CMAKE_DIR=${KOPT_CMAKE_DIR}"
  RESULT_VARIABLE status
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(status EQUAL 0)
  message(FATAL_ERROR "the configure succeeded; it should have failed with:\n  ${expected}\nstdout:\n${out}")
endif()
# CMake indents message lines; compare with runs of whitespace collapsed.
string(REGEX REPLACE "[ \n\t]+" " " flat "${err}")
if(NOT flat MATCHES "${expected}")
  message(FATAL_ERROR "the configure failed, but not with the expected message.\nexpected (regex): ${expected}\nstderr:\n${err}")
endif()
message(STATUS "failed as expected:\n${err}")
