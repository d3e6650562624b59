# Every committed record of the example kernels counts as it was recorded:
# `kopt status` names none that does not (an accepted record gone stale
# after an edit of its sources, a comment in a shared header included, or
# an inconsistent one; docs/loop.md, "Records are re-checked"). The records
# are this repository's evidence: restore the sources, or gate a new variant.
#   cmake -DKOPT=<kopt> "-DMANIFESTS=<m1;m2;...>" -P records_current.cmake
set(problems "")
foreach(manifest IN LISTS MANIFESTS)
  execute_process(COMMAND ${KOPT} status --manifest ${manifest} --json
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  # 0 continue, 1 stop: both read the records.
  if(NOT rc MATCHES "^[01]$")
    message(FATAL_ERROR "records_current: kopt status --manifest ${manifest} exited ${rc}: ${err}")
  endif()
  string(JSON count ERROR_VARIABLE json_error LENGTH "${out}" uncounted)
  if(json_error)
    message(FATAL_ERROR "records_current: ${manifest}: kopt status --json has no uncounted array: ${json_error}")
  endif()
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON note GET "${out}" uncounted ${i})
      string(APPEND problems "\n  ${note}")
    endforeach()
  endif()
endforeach()
list(LENGTH MANIFESTS n)
if(problems)
  message(FATAL_ERROR "records_current: committed records that do not count as recorded:${problems}")
endif()
message(STATUS "records_current: every record of ${n} kernel(s) counts as recorded")
