# Tests mirror the code (ARCHITECTURE.md, "Tests"): every folder of
# framework/src (kopt's subfolders, and kopt/scale's, each on their own) has its unit tests
# in the same folder under tests/, and every C++ file there is named
# test_<subject>.cpp (or main.cpp, an executable's own main).
#   cmake -DSOURCE_DIR=<framework/src> -DTESTS_DIR=<tests> -P check_test_layout.cmake
set(problems "")
file(GLOB units RELATIVE ${SOURCE_DIR} LIST_DIRECTORIES true ${SOURCE_DIR}/* ${SOURCE_DIR}/kopt/*
     ${SOURCE_DIR}/kopt/scale/*)
set(folders include)
foreach(unit IN LISTS units)
  if(IS_DIRECTORY ${SOURCE_DIR}/${unit} AND NOT unit STREQUAL "kopt" AND NOT unit STREQUAL "kopt/scale")
    list(APPEND folders ${unit})
  endif()
endforeach()
foreach(folder IN LISTS folders)
  if(NOT IS_DIRECTORY ${TESTS_DIR}/${folder})
    list(APPEND problems "framework/src/${folder} has no tests/${folder}")
    continue()
  endif()
  file(GLOB sources RELATIVE ${TESTS_DIR} ${TESTS_DIR}/${folder}/*.cpp)
  foreach(source IN LISTS sources)
    get_filename_component(name ${source} NAME)
    if(NOT name MATCHES "^(test_[a-z0-9_]+|main)\\.cpp$")
      list(APPEND problems "tests/${source}: a test file is named test_<subject>.cpp")
    endif()
  endforeach()
endforeach()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "check_test_layout:\n  ${text}")
endif()
list(LENGTH folders n)
message(STATUS "check_test_layout: ${n} folders mirrored")
