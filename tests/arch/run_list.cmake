# Configures tests/arch/project for the list "80;89;90a": every variant can
# run on some architecture of the list, so configure names none as not
# built. Builds the small kernel's modules and, where cuobjdump is known
# (CUOBJDUMP), checks that each holds machine code for exactly what it can
# run on: v0 (no need) and v2 (MIN_COMPUTE_CAPABILITY 8.0) all three, v1
# (CUDA_ARCHITECTURES 90a) sm_90a only.
file(REMOVE_RECURSE "${WORK_DIR}")
set(args -S "${SOURCE_DIR}" -B "${WORK_DIR}" -G "${GENERATOR}"
    "-DEXAMPLES_DIR=${EXAMPLES_DIR}" "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_BUILD_TYPE=Release"
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}")
if(LAUNCHER)
  list(APPEND args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}" "-DCMAKE_CUDA_COMPILER_LAUNCHER=${LAUNCHER}")
endif()
# Quoted in the command itself: a list element would split at the ';'.
execute_process(COMMAND "${CMAKE_COMMAND}" ${args} "-DCMAKE_CUDA_ARCHITECTURES=80;89;90a" RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "configuring for 80;89;90a failed:\n${out}\n${err}")
endif()
if(out MATCHES "KernelOpt: [a-z_0-9]+ [a-z0-9]+ is not built")
  message(FATAL_ERROR "with 80;89;90a every variant has an architecture, yet configure said:\n${out}")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}" --target tiny_kopt_v0 tiny_kopt_v1 tiny_kopt_v2
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "building tiny for 80;89;90a failed:\n${out}\n${err}")
endif()

if(NOT CUOBJDUMP)
  message(STATUS "80;89;90a: configured and built; cuobjdump not known, the modules' architectures not checked")
  return()
endif()
foreach(check IN ITEMS "v0|sm_80,sm_89,sm_90a" "v1|sm_90a" "v2|sm_80,sm_89,sm_90a")
  string(REPLACE "|" ";" check "${check}")
  list(GET check 0 variant)
  list(GET check 1 expected)
  file(GLOB module "${WORK_DIR}/kernelopt/tiny/*kopt_tiny_${variant}.*")
  execute_process(COMMAND "${CUOBJDUMP}" --list-elf ${module}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCHALL "sm_[0-9]+a?" archs "${out}")
  list(REMOVE_DUPLICATES archs)
  list(SORT archs)
  string(REPLACE ";" "," archs "${archs}")
  if(NOT status EQUAL 0 OR NOT archs STREQUAL expected)
    message(FATAL_ERROR "tiny ${variant}'s module '${module}' holds '${archs}', expected '${expected}':\n${out}\n${err}")
  endif()
endforeach()
message(STATUS "80;89;90a: no variant left out; tiny v0 and v2 hold sm_80, sm_89, sm_90a, v1 sm_90a only")
