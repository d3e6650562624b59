# `kopt static` as the generated <k>.static.<variant> test runs it, with a
# stand-in cuobjdump that prints the output captured in data/ for the object
# it is given (host.o: "does not contain device code", as cuobjdump says of a
# host-only object), and a stand-in nvdisasm that prints the captured line
# table (data/<object>.line-info.txt; none: no line info). Checks exit
# codes, the table and the JSON.
#   cmake -DKOPT=<kopt> -DDATA=<tests/static/data> -DWORK=<dir> -P end_to_end.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/bin" "${WORK}/no_line_info" "${WORK}/nvdisasm_missing" "${WORK}/empty" "${WORK}/objects")
foreach(object IN ITEMS shuffle_vector mma_sync spill_local host variant_a variant_b)
  file(WRITE "${WORK}/objects/${object}.o" "")
endforeach()

file(WRITE "${WORK}/bin/cuobjdump" "#!/bin/sh
PATH=/usr/bin:/bin
case \"$1\" in
  --version) printf 'cuobjdump: NVIDIA (R) fat binary listing tool\\nCuda compilation tools, release 13.5, V13.5.37\\n'; exit 0;;
  -sass) kind=sass;;
  -res-usage) kind=res-usage;;
  -xelf) [ \"$2\" = all ] || exit 3; : > \"$(basename \"$3\" .o).sm_90a.cubin\"; exit 0;;
  *) echo \"unexpected arguments: $*\" >&2; exit 3;;
esac
base=$(basename \"$2\" .o)
if [ \"$base\" = host ]; then echo \"cuobjdump info    : File '$2' does not contain device code\"; exit 255; fi
cat \"${DATA}/$base.$kind.txt\"
")
set(at "@")  # "@DATA@" written out would be replaced by DATA's value here
file(WRITE "${WORK}/bin/nvdisasm" "#!/bin/sh
PATH=/usr/bin:/bin
[ \"$1\" = -gi ] || { echo \"unexpected arguments: $*\" >&2; exit 3; }
base=$(basename \"$2\" .sm_90a.cubin)
if [ -f \"${DATA}/$base.line-info.txt\" ]; then sed \"s|${at}DATA${at}|${DATA}|g\" \"${DATA}/$base.line-info.txt\"; fi
")
file(COPY "${WORK}/bin/cuobjdump" DESTINATION "${WORK}/no_line_info")  # no nvdisasm beside it
file(WRITE "${WORK}/nvdisasm_missing/cuobjdump" "#!/bin/sh
echo \"cuobjdump fatal   : Could not find executable file 'nvdisasm'; you can try adding path to environment variables PATH or NVDISASM_PATH\"
exit 1
")
file(CHMOD "${WORK}/bin/cuobjdump" "${WORK}/bin/nvdisasm" "${WORK}/no_line_info/cuobjdump" "${WORK}/nvdisasm_missing/cuobjdump"
  PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

file(WRITE "${WORK}/manifest.json" "{
  \"schema_version\": 1, \"kind\": \"kernelopt.manifest\", \"kernel\": \"k\", \"backend\": \"cuda\",
  \"args\": [], \"dims\": [\"n\"], \"shapes\": [\"n=1\"], \"quick_shapes\": [\"n=1\"], \"seeds\": [1],
  \"tolerance\": null, \"flops\": \"n\", \"bytes\": \"n\", \"targets\": [], \"records_dir\": \"${WORK}/records\",
  \"reference\": {\"name\": \"reference\", \"entry\": \"ref\", \"backend\": \"host\", \"precision\": \"native\", \"sources\": []},
  \"variants\": [
    {\"name\": \"v1\", \"entry\": \"e1\", \"sources\": [\"${DATA}/kernels/shuffle_vector.cu\"], \"parent\": null,
     \"hypothesis\": null, \"methods\": [\"warp_shuffle\", \"vector_load_128\", \"online_softmax\"]},
    {\"name\": \"v2\", \"entry\": \"e2\", \"parent\": \"v1\", \"hypothesis\": \"h\", \"methods\": [\"wgmma\"],
     \"sources\": [\"${DATA}/kernels/shuffle_vector.cu\", \"${DATA}/kernels/spill_local.cu\", \"${DATA}/kernels/mma_sync.cu\"]},
    {\"name\": \"a\", \"entry\": \"variant_a\", \"sources\": [\"${DATA}/kernels/shared/variant_a.cu\"], \"parent\": null,
     \"hypothesis\": null, \"methods\": [\"warp_shuffle\"]},
    {\"name\": \"b\", \"entry\": \"variant_b\", \"sources\": [\"${DATA}/kernels/shared/variant_b.cu\"], \"parent\": \"a\",
     \"hypothesis\": \"h\", \"methods\": [\"warp_shuffle\"]}
  ],
  \"baselines\": [],
  \"timing\": {\"min_samples\": 10, \"min_time_s\": 0.5, \"max_noise\": 0.005, \"timeout_s\": 15.0, \"warmup_samples\": 3},
  \"executables\": {\"test\": \"/nonexistent/test\", \"bench\": \"\", \"kopt\": null}
}
")

set(objects "${WORK}/objects")
set(v1_methods
  "--method-signature=warp_shuffle=SHFL"
  "--method-signature=vector_load_128=LDG\\.E[.A-Z0-9_]*\\.128"
  "--method-signature=online_softmax=")

# run(<name> <expected exit> <stdout regex> <args>...): PATH holds only `path`.
function(run name expected_rc expected_out path)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env "PATH=${path}" "${KOPT}" static --manifest "${WORK}/manifest.json" ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${expected_rc}" OR NOT "${out}${err}" MATCHES "${expected_out}")
    message(FATAL_ERROR "case ${name}: exit ${rc} (expected ${expected_rc}); output should match '${expected_out}'\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  message(STATUS "case ${name}: ok (exit ${rc})")
endfunction()

run(pass 0 "found 5 in 1 function.*no signature \\(not machine-checkable\\).*result: PASS" "${WORK}/bin"
  --variant v1 --objects "${objects}/shuffle_vector.o" --objects "${objects}/host.o"
  ${v1_methods} --max-registers 64 --no-spills --out "${WORK}/pass.json")
file(READ "${WORK}/pass.json" doc)
string(JSON status GET "${doc}" status)
string(JSON kind GET "${doc}" kind)
string(JSON functions LENGTH "${doc}" functions)
string(JSON shfl GET "${doc}" methods 0 found count)
string(JSON no_signature GET "${doc}" methods 2 found)
if(NOT status STREQUAL "pass" OR NOT kind STREQUAL "kernelopt.static" OR NOT functions EQUAL 3
   OR NOT shfl EQUAL 5 OR NOT no_signature STREQUAL "no signature")
  message(FATAL_ERROR "pass.json: unexpected content:\n${doc}")
endif()

run(missing_method 1 "result: FAIL.*claims METHOD wgmma, but no instruction matches /HGMMA\\|QGMMA/" "${WORK}/bin"
  --variant v2 --objects "${objects}/shuffle_vector.o" "--method-signature=wgmma=HGMMA|QGMMA" --out "${WORK}/fail.json")
file(READ "${WORK}/fail.json" doc)
string(JSON status GET "${doc}" status)
if(NOT status STREQUAL "fail")
  message(FATAL_ERROR "fail.json: status ${status}")
endif()

run(user_signature_and_limits 1 "requires SASS_SIGNATURES hgmma.*breaks NO_LOCAL_MEMORY" "${WORK}/bin"
  --variant v2 --objects "${objects}/spill_local.o" --objects "${objects}/mma_sync.o"
  "--method-signature=wgmma=HMMA" "--sass-signature=hgmma=HGMMA" --no-local-memory --out "${WORK}/limits.json")

run(no_cuobjdump 77 "SKIPPED: cuobjdump not found \\(install nvidia-cuda-cuobjdump or the CUDA toolkit's cuobjdump\\)"
  "${WORK}/empty" --variant v1 --objects "${objects}/shuffle_vector.o" ${v1_methods}
  --cuobjdump "${WORK}/empty/cuobjdump" --out "${WORK}/skip.json")
file(READ "${WORK}/skip.json" doc)
string(JSON status GET "${doc}" status)
if(NOT status STREQUAL "skipped")
  message(FATAL_ERROR "skip.json: status ${status}")
endif()

run(no_nvdisasm 77 "SKIPPED: cuobjdump cannot disassemble: nvdisasm not found" "${WORK}/empty"
  --variant v1 --objects "${objects}/shuffle_vector.o" ${v1_methods}
  --cuobjdump "${WORK}/nvdisasm_missing/cuobjdump" --out "${WORK}/skip2.json")

run(claim_without_regex 2 "claims METHOD online_softmax but no --method-signature" "${WORK}/bin"
  --variant v1 --objects "${objects}/shuffle_vector.o" "--method-signature=warp_shuffle=SHFL"
  "--method-signature=vector_load_128=LDG" --out "${WORK}/usage.json")

run(regex_for_unclaimed_method 2 "does not claim METHOD tma" "${WORK}/bin"
  --variant v2 --objects "${objects}/shuffle_vector.o" "--method-signature=wgmma=HGMMA"
  "--method-signature=tma=UTMALDG" --out "${WORK}/usage.json")

run(missing_object 2 "does not exist: build the variant first" "${WORK}/bin"
  --variant v2 --objects "${objects}/nonexistent.o" "--method-signature=wgmma=HGMMA" --out "${WORK}/usage.json")

run(bad_register_limit 2 "--max-registers '0': expected an integer from 1 to 255" "${WORK}/bin"
  --variant v2 --objects "${objects}/shuffle_vector.o" "--method-signature=wgmma=HGMMA" --max-registers 0
  --out "${WORK}/usage.json")

# A shared header (kernels/shared/common.cuh) defines helper_shuffle, which
# shuffles: variant a's claim must not pass on it. With the line table, and
# without it (no nvdisasm beside cuobjdump: the SOURCES' text decides).
run(shared_header_line_info 1
  "claims METHOD warp_shuffle: /SHFL/ not found in its own kernels \\(add_one defined in variant_a.cu\\); found only in helper_shuffle \\(defined in common.cuh\\)"
  "${WORK}/bin" --variant a --objects "${objects}/variant_a.o" "--method-signature=warp_shuffle=SHFL"
  --max-registers 10 --out "${WORK}/shared_a.json")
file(READ "${WORK}/shared_a.json" doc)
string(JSON status GET "${doc}" status)
string(JSON own0 GET "${doc}" functions 0 own)
string(JSON own2 GET "${doc}" functions 2 own)
string(JSON defined2 GET "${doc}" functions 2 defined_in)
string(JSON by2 GET "${doc}" functions 2 defined_by)
string(JSON elsewhere GET "${doc}" methods 0 found elsewhere 0 function)
string(JSON limit GET "${doc}" limits 0 status)
if(NOT status STREQUAL "fail" OR NOT own0 OR own2 OR NOT defined2 STREQUAL "${DATA}/kernels/shared/common.cuh"
   OR NOT by2 STREQUAL "line info" OR NOT elsewhere MATCHES "^helper_shuffle" OR NOT limit STREQUAL "pass")
  message(FATAL_ERROR "shared_a.json: unexpected content:\n${doc}")
endif()

run(shared_header_own_kernel_shuffles 0 "found 5 in 1 function\\(s\\) \\(scaled_warp_sum<2>: 5\\).*result: PASS"
  "${WORK}/bin" --variant b --objects "${objects}/variant_b.o" "--method-signature=warp_shuffle=SHFL"
  --out "${WORK}/shared_b.json")

run(shared_header_source_text 1
  "no line info from variant_a.o: nvdisasm not found.*found only in helper_shuffle \\(defined outside its SOURCES\\)"
  "${WORK}/no_line_info" --variant a --objects "${objects}/variant_a.o" "--method-signature=warp_shuffle=SHFL"
  --cuobjdump "${WORK}/no_line_info/cuobjdump" --out "${WORK}/shared_a_text.json")
file(READ "${WORK}/shared_a_text.json" doc)
string(JSON by0 GET "${doc}" functions 0 defined_by)
string(JSON defined0 GET "${doc}" functions 0 defined_in)
if(NOT by0 STREQUAL "source text" OR NOT defined0 STREQUAL "${DATA}/kernels/shared/variant_a.cu")
  message(FATAL_ERROR "shared_a_text.json: unexpected content:\n${doc}")
endif()
