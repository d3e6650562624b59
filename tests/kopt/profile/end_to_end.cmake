# `kopt profile` as the profile-<k> target runs it, with a stand-in ncu: a
# profiling run writes a "report" naming the SYNTHETIC CSV in data/ for the
# benchmark it was asked for (v0: ncu fails), and `ncu --import` prints that
# CSV; FAKE_NCU_MODE=perm prints ncu's ERR_NVGPUCTRPERM message instead.
#   cmake -DKOPT=<kopt> -DDATA=<tests/kopt/profile/data> -DSPECS=<framework/specs> -DWORK=<dir> -P end_to_end.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/bin" "${WORK}/empty")
file(WRITE "${WORK}/bin/ncu" "#!/bin/sh
PATH=/usr/bin:/bin
if [ \"$1\" = --version ]; then echo 'stand-in ncu for tests'; echo 'Version 0.0 (fake)'; exit 0; fi
if [ \"$FAKE_NCU_MODE\" = perm ]; then cat \"${DATA}/ncu_permission_error.txt\"; exit 1; fi
if [ \"$1\" = --import ]; then cat \"${DATA}/$(cat \"$2\")\"; exit 0; fi
report=''; filter=''
while [ $# -gt 0 ]; do
  case \"$1\" in
    --export) report=\"$2\"; shift;;
    --benchmark_filter=*) filter=\"$1\";;
  esac
  shift
done
echo \"==PROF== Connected to process 4242\"
case \"$filter\" in
  */v1/*) echo softmax_v1_memory_bound.csv > \"$report\";;
  */v2/*) echo softmax_v2_high_throughput.csv > \"$report\";;
  *) echo '==ERROR== The application returned an error code (134).'; exit 1;;
esac
echo \"==PROF== Report: $report\"
")
file(WRITE "${WORK}/bench" "#!/bin/sh\nexit 0\n")
file(CHMOD "${WORK}/bin/ncu" "${WORK}/bench"
  PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

file(WRITE "${WORK}/manifest.json" "{
  \"schema_version\": 1, \"kind\": \"kernelopt.manifest\", \"kernel\": \"softmax\", \"backend\": \"cuda\",
  \"args\": [{\"name\": \"x\", \"dir\": \"in\", \"dtype\": \"f32\", \"shape\": [\"rows\", \"cols\"]},
           {\"name\": \"y\", \"dir\": \"out\", \"dtype\": \"f32\", \"shape\": [\"rows\", \"cols\"]}],
  \"dims\": [\"rows\", \"cols\"], \"shapes\": [\"rows=8192,cols=8192\"], \"quick_shapes\": [\"rows=8192,cols=8192\"],
  \"seeds\": [1], \"tolerance\": null, \"flops\": \"5*rows*cols\", \"bytes\": \"8*rows*cols\", \"targets\": [],
  \"records_dir\": \"${WORK}/records\",
  \"reference\": {\"name\": \"reference\", \"entry\": \"ref\", \"backend\": \"host\", \"precision\": \"f64\", \"sources\": []},
  \"variants\": [
    {\"name\": \"v0\", \"entry\": \"e0\", \"sources\": [], \"parent\": null, \"hypothesis\": null, \"methods\": []},
    {\"name\": \"v1\", \"entry\": \"e1\", \"sources\": [], \"parent\": \"v0\", \"hypothesis\": \"h\", \"methods\": []},
    {\"name\": \"v2\", \"entry\": \"e2\", \"sources\": [], \"parent\": \"v1\", \"hypothesis\": \"h\", \"methods\": []}
  ],
  \"baselines\": [],
  \"timing\": {\"min_samples\": 10, \"min_time_s\": 0.5, \"max_noise\": 0.005, \"timeout_s\": 15.0, \"warmup_samples\": 3},
  \"executables\": {\"test\": \"${WORK}/bench\", \"bench\": \"${WORK}/bench\", \"kopt\": null}
}
")

# run(<name> <expected exit> <output regex> <args>...)
function(run name expected_rc expected_out)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env "PATH=${WORK}/empty" ${ENV_EXTRA} "${KOPT}" ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${expected_rc}" OR NOT "${out}${err}" MATCHES "${expected_out}")
    message(FATAL_ERROR "case ${name}: exit ${rc} (expected ${expected_rc}); output should match '${expected_out}'\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  message(STATUS "case ${name}: ok (exit ${rc})")
endfunction()

function(expect_json file pointer expected)
  file(READ "${file}" doc)
  string(JSON value GET "${doc}" ${pointer})
  if(NOT value STREQUAL "${expected}")
    message(FATAL_ERROR "${file}: ${pointer} is '${value}', expected '${expected}'")
  endif()
endfunction()

set(common --manifest "${WORK}/manifest.json" --ncu "${WORK}/bin/ncu" --specs-dir "${SPECS}")

run(two_variants 0 "softmax/v1/rows=8192,cols=8192: memory-bound.*softmax/v2/rows=8192,cols=8192: high-throughput \\(memory\\).*profile: ok"
  profile ${common} --variant v1 --variant v2 --out "${WORK}/out/profile.json")
expect_json("${WORK}/out/profile.json" "status" "ok")
expect_json("${WORK}/out/profile.json" "device" "NVIDIA H100 80GB HBM3")
expect_json("${WORK}/out/profile.v1.json" "bottleneck" "memory-bound")
expect_json("${WORK}/out/profile.v2.json" "bottleneck" "high-throughput (memory)")
expect_json("${WORK}/out/profile.v2.json" "roofline;0;shape" "rows=8192,cols=8192")
foreach(artifact IN ITEMS v1.rows_8192_cols_8192.ncu-rep v1.rows_8192_cols_8192.csv v1.rows_8192_cols_8192.log)
  if(NOT EXISTS "${WORK}/out/profile.ncu/${artifact}")
    message(FATAL_ERROR "missing ${WORK}/out/profile.ncu/${artifact}")
  endif()
endforeach()

run(one_fails 1 "softmax/v0/rows=8192,cols=8192: FAILED \\(ncu: The application returned an error code \\(134\\).*profile: partial"
  profile ${common} --out "${WORK}/all/profile.json")
expect_json("${WORK}/all/profile.v0.json" "status" "unavailable")
expect_json("${WORK}/all/profile.v1.json" "status" "ok")

set(ENV_EXTRA FAKE_NCU_MODE=perm)
run(counters_not_readable 77 "profile: unavailable \\(performance counters not readable \\(ERR_NVGPUCTRPERM\\)"
  profile ${common} --variant v1 --out "${WORK}/perm/profile.json")
expect_json("${WORK}/perm/profile.json" "status" "unavailable")
run(counters_not_readable_allowed 0 "profile: unavailable"
  profile ${common} --variant v1 --allow-unavailable --out "${WORK}/perm/profile.json")
set(ENV_EXTRA "")

run(no_ncu 77 "profile: unavailable \\(ncu not found at ${WORK}/empty/ncu"
  profile --manifest "${WORK}/manifest.json" --ncu "${WORK}/empty/ncu" --out "${WORK}/none/profile.json")
expect_json("${WORK}/none/profile.json" "reason" "ncu not found at ${WORK}/empty/ncu (install Nsight Compute: it ships with the CUDA toolkit)")

run(unknown_variant 2 "--variant v9: kernel softmax has no variant or baseline of that name \\(v0, v1, v2\\)"
  profile ${common} --variant v9 --out "${WORK}/bad/profile.json")

run(import 0 "softmax/v1/rows=8192,cols=8192: memory-bound.*profile: ok"
  profile-import --manifest "${WORK}/manifest.json" --specs-dir "${SPECS}"
  "--csv=softmax/v1/rows=8192,cols=8192=${DATA}/softmax_v1_memory_bound.csv" --out "${WORK}/import/profile.json")
expect_json("${WORK}/import/profile.json" "bottleneck" "memory-bound")

run(import_bad_name 2 "the benchmark name must be softmax/<impl>/<shape>"
  profile-import --manifest "${WORK}/manifest.json" "--csv=gemm/v1=${DATA}/softmax_v1_memory_bound.csv"
  --out "${WORK}/import/bad.json")
