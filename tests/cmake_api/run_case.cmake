# Configures project/ with one case and checks that the configure fails with
# the message the case expects (its "# EXPECT: <regex>" line), as CMake's
# RunCMake tests do (CUDA_COMPILER, when given, is the case's
# CMAKE_CUDA_COMPILER). A case with a "# CHECK: <script>" line instead must
# configure and generate; then <script> (relative to the case, run with
# WORK_DIR set) checks what was generated.
set(compiler_args "")
if(CUDA_COMPILER)
  set(compiler_args "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}")
endif()
file(STRINGS "${CASE_FILE}" check_lines REGEX "^# CHECK: ")
if(check_lines)
  list(GET check_lines 0 check)
  string(REGEX REPLACE "^# CHECK: " "" check "${check}")
  get_filename_component(case_dir "${CASE_FILE}" DIRECTORY)
  file(REMOVE_RECURSE "${WORK_DIR}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${PROJECT_DIR}" -B "${WORK_DIR}"
            "-DCASE_FILE=${CASE_FILE}" "-DKOPT_CMAKE_DIR=${KOPT_CMAKE_DIR}" ${compiler_args}
    RESULT_VARIABLE status
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "the configure failed; it should have succeeded.\nstderr:\n${err}")
  endif()
  include("${case_dir}/${check}")
  return()
endif()
file(STRINGS "${CASE_FILE}" expect_lines REGEX "^# EXPECT: ")
list(GET expect_lines 0 expected)
string(REGEX REPLACE "^# EXPECT: " "" expected "${expected}")
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${PROJECT_DIR}" -B "${WORK_DIR}"
          "-DCASE_FILE=${CASE_FILE}" "-DKOPT_CMAKE_DIR=${KOPT_CMAKE_DIR}" ${compiler_args}
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
