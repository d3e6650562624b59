# The manifest of max_iterations_in_manifest holds "max_iterations": 7.
file(READ "${WORK_DIR}/kernelopt/gemm/manifest.json" json)
string(JSON type TYPE "${json}" max_iterations)
string(JSON value GET "${json}" max_iterations)
if(NOT type STREQUAL "NUMBER" OR NOT value EQUAL 7)
  message(FATAL_ERROR "max_iterations is ${type} '${value}', expected the number 7")
endif()
message(STATUS "max_iterations reaches the manifest: ${value}")
