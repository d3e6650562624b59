# libraries_imported_in_a_subdirectory: generated (the configure succeeded),
# and v1's module links Vendor::blas: the generated build names no missing
# target (CMake would have failed the generate step) and the manifest lists v1.
cmake_policy(VERSION 3.25)
file(READ "${WORK_DIR}/kernelopt/gemm/manifest.json" json)
string(JSON name GET "${json}" variants 1 name)
if(NOT name STREQUAL "v1")
  message(FATAL_ERROR "the manifest's second variant is '${name}', expected v1")
endif()
