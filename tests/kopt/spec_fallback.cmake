# kopt record without a ceilings file on real H200 inputs: peak.* must come
# from the device's spec file (framework/specs/h200_sxm.json), with its cited
# source; the measured-only names (copy_bandwidth) stay absent. Runs on a copy of the softmax
# manifest whose records go to WORK_DIR.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/softmax")
file(READ "${MANIFEST}" manifest)
string(JSON manifest SET "${manifest}" records_dir "\"${WORK_DIR}\"")
file(WRITE "${WORK_DIR}/manifest.json" "${manifest}")
file(COPY "${RECORDS}/softmax/v0.json" DESTINATION "${WORK_DIR}/softmax")
execute_process(COMMAND "${KOPT}" record --manifest "${WORK_DIR}/manifest.json" --variant v1
                        --correctness "${DATA}/softmax_correct_v1.json" --bench "${DATA}/softmax_bench_run_v1.json"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status MATCHES "^(0|1)$")
  message(FATAL_ERROR "kopt record failed (${status}):\n${out}\n${err}")
endif()
file(READ "${WORK_DIR}/softmax/v1.json" record)
string(JSON source GET "${record}" ceilings ceilings dram_bandwidth source)
if(NOT source MATCHES "^h200_sxm\\.json: ")
  message(FATAL_ERROR "peak.dram_bandwidth did not come from the H200 spec file: '${source}'")
endif()
string(JSON measured ERROR_VARIABLE missing GET "${record}" ceilings ceilings copy_bandwidth)
if(NOT missing)
  message(FATAL_ERROR "a spec file must not provide the measured-only copy_bandwidth")
endif()
message(STATUS "spec fallback: ${source}")
