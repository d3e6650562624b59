cmake_minimum_required(VERSION 3.25)
# Drives one kernel through the loop with kopt and checks every step's
# outcome (see CMakeLists.txt). Starts from no records.
file(REMOVE_RECURSE "${RECORDS}")

function(kopt expected_codes)
  execute_process(COMMAND "${KOPT}" ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "kopt ${ARGN} -> ${code}\n${out}${err}")
  if(NOT code IN_LIST expected_codes)
    message(FATAL_ERROR "kopt ${ARGN}: exit ${code}, expected one of ${expected_codes}\n${out}\n${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "expected output matching '${regex}'")
  endif()
endfunction()

# Three iterations: each picks the next variant without a record.
foreach(variant IN ITEMS v0 v1 v2)
  kopt(0 optimize --manifest "${MANIFEST}")
  expect("${out}" "optimize host_loop/${variant}")
  expect("${out}" "\\[8/8\\] report")
  expect("${out}" "gate host_loop/${variant}: ACCEPT")
  if(NOT EXISTS "${RECORDS}/host_loop/${variant}.json")
    message(FATAL_ERROR "no record for ${variant}")
  endif()
endforeach()
kopt(0 optimize --manifest "${MANIFEST}")
expect("${out}" "nothing to optimize: every declared variant of host_loop has a record")
foreach(file IN ITEMS report.md report.html)
  if(NOT EXISTS "${RECORDS}/host_loop/report/${file}")
    message(FATAL_ERROR "no ${file}")
  endif()
endforeach()
file(READ "${RECORDS}/host_loop/report/report.md" report)
expect("${report}" "\\| best variant \\| v2 \\|")

# The gate re-evaluates a stored record; a record is never written twice.
kopt(0 gate --manifest "${MANIFEST}" --variant v1)
expect("${out}" "ACCEPT")
kopt(2 record --manifest "${MANIFEST}" --variant v1 --correctness "${RECORDS}/none.json" --bench "${RECORDS}/none.json")

# Records compare like benchmark files: v0 -> v2 is FASTER, never SLOWER.
kopt(0 compare "${RECORDS}/host_loop/v0.json" "${RECORDS}/host_loop/v2.json")
expect("${out}" "FASTER")

# Masking v2 makes v1 the best again; perf then benchmarks v1.
kopt(0 mask --manifest "${MANIFEST}" --variant v2 --reason "host_e2e: masking test")
# A masked record is never accepted.
kopt(1 gate --manifest "${MANIFEST}" --variant v2)
expect("${out}" "masked")
# CPU timings on shared CI cores drift between processes by more than the
# threshold at times, so perf may say SLOWER (1); it must run and compare.
kopt("0;1" perf --manifest "${MANIFEST}")
expect("${out}" "v1")
message(STATUS "the host loop ran end to end")
