# libraries_imported_*: generated (the configure succeeded: CMake would have
# failed the generate step on a target v1's module cannot see), and the
# manifest, wherever the kernel's directory put it, lists v1.
cmake_policy(VERSION 3.25)
file(GLOB_RECURSE manifests "${WORK_DIR}/*manifest.json")
list(FILTER manifests INCLUDE REGEX "/kernelopt/gemm/manifest\\.json$")
list(LENGTH manifests found)
if(NOT found EQUAL 1)
  message(FATAL_ERROR "expected one manifest of gemm under ${WORK_DIR}, found: ${manifests}")
endif()
file(READ "${manifests}" json)
string(JSON name GET "${json}" variants 1 name)
if(NOT name STREQUAL "v1")
  message(FATAL_ERROR "the manifest's second variant is '${name}', expected v1")
endif()
