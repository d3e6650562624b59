# static.ablation_nvcc (docs/ablation.md, docs/static-checks.md "Ablation"):
# the switch of static_ablate v0 compiled both ways by nvcc. The ablated
# module is outside ALL: build it here, then `kopt static` finds SHFL in the
# variant and not in the ablated build (the check kopt ablate makes).
# static.ablation_family_nvcc: the same for a family whose champion is
# POINT: the manifest's objects are that point's and its ablated build's.
#   cmake -DKOPT=... -DCMAKE=... -DBUILD=<build tree> -DMANIFEST=... -DCUOBJDUMP=... -DWORK=... [-DPOINT=...] -P check_ablated_sass.cmake
file(READ "${MANIFEST}" json)
string(JSON target GET "${json}" variants 0 switches 0 target)
string(JSON n LENGTH "${json}" variants 0 switches 0 objects)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected the ablated build's one object in the manifest, got ${n}")
endif()
string(JSON ablated GET "${json}" variants 0 switches 0 objects 0)
string(JSON variant GET "${json}" variants 0 static objects 0)
if(DEFINED POINT)
  foreach(pair IN ITEMS "variant;${POINT}.dir" "ablated;${POINT}__no_warp_shuffle.dir")
    list(GET pair 0 which)
    list(GET pair 1 dir)
    if(NOT "${${which}}" MATCHES "_kopt_${dir}/")
      message(FATAL_ERROR "the ${which} object ${${which}} is not the champion's (${dir})")
    endif()
  endforeach()
endif()
execute_process(COMMAND "${CMAKE}" --build "${BUILD}" --target ${target} RESULT_VARIABLE built OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "cannot build ${target}:\n${out}${err}")
endif()
foreach(pair IN ITEMS "variant;0;found" "ablated;1;missing")
  list(GET pair 0 which)
  list(GET pair 1 expected_code)
  list(GET pair 2 expected_status)
  execute_process(COMMAND "${KOPT}" static --manifest "${MANIFEST}" --variant v0 --objects "${${which}}"
                          --method-signature warp_shuffle=SHFL --cuobjdump "${CUOBJDUMP}" --out "${WORK}/${which}.json"
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${which}: exit ${code}\n${out}${err}")
  if(code EQUAL 77)
    message(STATUS "SKIPPED: ${out}")
    return()
  endif()
  file(READ "${WORK}/${which}.json" doc)
  string(JSON status GET "${doc}" methods 0 status)
  if(NOT code EQUAL expected_code OR NOT status STREQUAL expected_status)
    message(FATAL_ERROR "${which}: exit ${code}, warp_shuffle ${status}; expected exit ${expected_code}, ${expected_status}")
  endif()
endforeach()
message(STATUS "SHFL in the variant, none in the build without warp_shuffle")
