# cmake -DSOURCE=<tests/fuzz/project> -DBUILD=<dir> -DCXX=<clang++> [-DLAUNCHER=ccache] [-DJOBS=2]
#       [-DOPTIMIZE=-O1] -P build_fuzz.cmake
# Configures and builds the clang fuzz project (the fixture of the fuzz.* tests).
if(NOT DEFINED JOBS)
  set(JOBS 2)
endif()
set(options)
if(LAUNCHER)
  set(options -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
if(OPTIMIZE)
  list(APPEND options -DKOPT_FUZZ_OPTIMIZE=${OPTIMIZE})  # else the project's default
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BUILD} -DCMAKE_CXX_COMPILER=${CXX}
                        -DCMAKE_BUILD_TYPE= ${options}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the fuzz project failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} --parallel ${JOBS} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the fuzz project failed (${rc})")
endif()
