# What a claimed METHOD looks like in SASS: method name -> regex over
# `cuobjdump -sass` lines. An empty regex means the claim has no machine-code
# signature (the static test says so rather than passing it silently).
# Extend per variant with kernel_opt_add_variant(... SASS_SIGNATURES "name=regex").

# _kernel_opt_method_signature(<out> <method>): regex, or NOTFOUND if unknown.
function(_kernel_opt_method_signature out method)
  set(signatures
    "tensor_cores=HMMA|HGMMA|QGMMA|IMMA"
    "mma_sync=HMMA"
    "wgmma=HGMMA|QGMMA"
    "cp_async=LDGSTS"
    "tma=UTMALDG|UTMASTG|UBLKCP"
    "mbarrier=SYNCS"
    "vector_load_128=LDG\\.E[.A-Z0-9_]*\\.128"
    "vector_store_128=STG\\.E[.A-Z0-9_]*\\.128"
    "ldmatrix=LDSM"
    "stmatrix=STSM"
    "warp_shuffle=SHFL"
    "smem_tiling=LDS|STS"
    "fast_math=MUFU"
    "register_blocking="
    "online_softmax="
    "loop_interchange="
    "cache_blocking="
    "l2_promotion="
    "pipeline_depth="
    "store_coalescing=")
  set(result NOTFOUND)
  foreach(entry IN LISTS signatures ARGN)
    if(entry MATCHES "^([a-z0-9_]+)=(.*)$" AND CMAKE_MATCH_1 STREQUAL method)
      set(result "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()
