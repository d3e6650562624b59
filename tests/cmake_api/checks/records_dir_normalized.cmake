# The manifest of records_dir_normalized names records_dir without "..".
set(manifest "${WORK_DIR}/kernelopt/gemm/manifest.json")
file(READ "${manifest}" json)
string(JSON records GET "${json}" records_dir)
get_filename_component(expected "${PROJECT_DIR}/../records" ABSOLUTE)
if(records MATCHES "(^|/)\\.\\.(/|$)" OR NOT records STREQUAL expected)
  message(FATAL_ERROR "records_dir is '${records}', expected '${expected}'")
endif()
message(STATUS "records_dir is normalized: ${records}")
