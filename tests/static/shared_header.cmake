# The real toolchain on a shared header: nvcc compiles kernels/shared/
# variant_a.cu and variant_b.cu (both include common.cuh, which defines
# helper_shuffle and helper_scale) as the generated variant targets do
# (-lineinfo), and once without -lineinfo; `kopt static` with the real
# cuobjdump and nvdisasm must fail variant_a's warp_shuffle claim naming
# helper_shuffle in common.cuh, and pass variant_b's, whose own kernel shuffles.
#   cmake -DKOPT=<kopt> -DNVCC=<nvcc> -DCUOBJDUMP=<cuobjdump> -DDATA=<tests/static/data> -DWORK=<dir>
#         -P shared_header.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(shared "${DATA}/kernels/shared")

foreach(v IN ITEMS a b)
  foreach(flavour IN ITEMS lineinfo plain)
    set(flags "")
    if(flavour STREQUAL "lineinfo")
      set(flags -lineinfo)
    endif()
    execute_process(
      COMMAND "${NVCC}" -c ${flags} "--generate-code=arch=compute_90a,code=[compute_90a,sm_90a]"
              -o "${WORK}/variant_${v}.${flavour}.o" "${shared}/variant_${v}.cu"
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "nvcc variant_${v}.cu (${flavour}): exit ${rc}\n${out}${err}")
    endif()
  endforeach()
endforeach()

file(WRITE "${WORK}/manifest.json" "{
  \"schema_version\": 1, \"kind\": \"kernelopt.manifest\", \"kernel\": \"k\", \"backend\": \"cuda\",
  \"args\": [], \"dims\": [\"n\"], \"shapes\": [\"n=1\"], \"quick_shapes\": [\"n=1\"], \"seeds\": [1],
  \"tolerance\": null, \"flops\": \"n\", \"bytes\": \"n\", \"targets\": [], \"records_dir\": \"${WORK}/records\",
  \"reference\": {\"name\": \"reference\", \"entry\": \"ref\", \"backend\": \"host\", \"precision\": \"native\", \"sources\": []},
  \"variants\": [
    {\"name\": \"a\", \"entry\": \"variant_a\", \"sources\": [\"${shared}/variant_a.cu\"], \"parent\": null,
     \"hypothesis\": null, \"methods\": [\"warp_shuffle\"]},
    {\"name\": \"b\", \"entry\": \"variant_b\", \"sources\": [\"${shared}/variant_b.cu\"], \"parent\": \"a\",
     \"hypothesis\": \"h\", \"methods\": [\"warp_shuffle\"]}
  ],
  \"baselines\": [],
  \"timing\": {\"min_samples\": 10, \"min_time_s\": 0.5, \"max_noise\": 0.005, \"timeout_s\": 15.0, \"warmup_samples\": 3},
  \"executables\": {\"test\": \"/nonexistent/test\", \"bench\": \"\", \"kopt\": null}
}
")

# check(<variant> <flavour> <expected exit> <stdout regex> <defined_by>)
function(check v flavour expected_rc expected_out defined_by)
  execute_process(
    COMMAND "${KOPT}" static --manifest "${WORK}/manifest.json" --variant ${v}
            --objects "${WORK}/variant_${v}.${flavour}.o" "--method-signature=warp_shuffle=SHFL"
            --cuobjdump "${CUOBJDUMP}" --out "${WORK}/${v}.${flavour}.json"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${expected_rc}" OR NOT "${out}${err}" MATCHES "${expected_out}")
    message(FATAL_ERROR "variant ${v} (${flavour}): exit ${rc} (expected ${expected_rc}); output should match "
                        "'${expected_out}'\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  file(READ "${WORK}/${v}.${flavour}.json" doc)
  string(JSON by GET "${doc}" functions 0 defined_by)
  if(NOT by STREQUAL "${defined_by}")
    message(FATAL_ERROR "variant ${v} (${flavour}): functions[0].defined_by is '${by}', expected '${defined_by}'\n${doc}")
  endif()
  message(STATUS "variant ${v} (${flavour}): ok (exit ${rc})")
endfunction()

set(a_fails "claims METHOD warp_shuffle: /SHFL/ not found in its own kernels \\(add_one defined in variant_a.cu\\); found only in helper_shuffle")
check(a lineinfo 1 "${a_fails} \\(defined in common.cuh\\)" "line info")
check(a plain 1 "${a_fails} \\(defined outside its SOURCES\\)" "source text")
check(b lineinfo 0 "found 5 in 1 function\\(s\\) \\(scaled_warp_sum<2>: 5\\).*result: PASS" "line info")
check(b plain 0 "found 5 in 1 function\\(s\\) \\(scaled_warp_sum<2>: 5\\).*result: PASS" "source text")
