# cmake -DSOURCE=<tests/fuzz/project> -DBUILD=<dir> -DCXX=<clang++> [-DLAUNCHER=ccache] [-DJOBS=2]
#       [-DOPTIMIZE=-O1] -P build_fuzz.cmake
# Configures and builds the clang fuzz project (the fixture of the fuzz.* tests).
if(NOT DEFINED JOBS)
  set(JOBS 2)
endif()
if(NOT DEFINED OPTIMIZE OR OPTIMIZE STREQUAL "")
  set(OPTIMIZE -O1)
endif()
set(launcher)
if(LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BUILD} -DCMAKE_CXX_COMPILER=${CXX}
                        -DCMAKE_BUILD_TYPE= -DKOPT_FUZZ_OPTIMIZE=${OPTIMIZE} ${launcher}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the fuzz project failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} --parallel ${JOBS} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the fuzz project failed (${rc})")
endif()
