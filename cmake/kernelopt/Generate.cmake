# Generation, run once per kernel at the end of the directory that declared
# it (cmake_language(DEFER), queued by kernel_opt_add_kernel): the checks that
# need every variant, then code (Codegen.cmake, Spec.cmake), tests and loop targets
# (Tests.cmake, Static.cmake, Profile.cmake) and the manifest (Manifest.cmake).

function(_kernel_opt_finalize kernel)
  _kernel_opt_set(${kernel} FINALIZED TRUE)
  _kernel_opt_check_declaration(${kernel})
  _kernel_opt_family_points(${kernel})
  _kernel_opt_ablation_impls(${kernel})
  _kernel_opt_write_signatures(${kernel})
  _kernel_opt_impl_libraries(${kernel})
  _kernel_opt_ablation_modules(${kernel})
  _kernel_opt_write_spec(${kernel})
  _kernel_opt_write_mains(${kernel})
  _kernel_opt_executables(${kernel})
  _kernel_opt_ablation_executables(${kernel})
  _kernel_opt_correctness_tests(${kernel})
  _kernel_opt_bench_tests(${kernel})
  _kernel_opt_loop_targets(${kernel})
  _kernel_opt_sweep_targets(${kernel})
  _kernel_opt_ablation_target(${kernel})
  _kernel_opt_static_tests(${kernel})
  _kernel_opt_profile_target(${kernel})
  # Last: it records what the steps above found (static check arguments, ncu).
  _kernel_opt_write_manifest(${kernel})
endfunction()

# What can only be checked once every variant is known, before anything is
# generated: a variant exists, and the cache settings that name variants or
# bound the generated tests are valid.
function(_kernel_opt_check_declaration kernel)
  _kernel_opt_get(variants ${kernel} VARIANTS)
  if(variants STREQUAL "")
    _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "kernel '${kernel}' has no variant"
      HINT "add one with kernel_opt_add_variant(${kernel} v0 SOURCES ... ENTRY ...)")
  endif()
  _kernel_opt_resource_mode(resource_mode ${kernel})
  if(NOT KernelOpt_REFERENCE_THREADS MATCHES "^[1-9][0-9]?[0-9]?[0-9]?$" OR KernelOpt_REFERENCE_THREADS GREATER 4096)
    _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "KernelOpt_REFERENCE_THREADS must be an integer from 1 to 4096"
      KEY KernelOpt_REFERENCE_THREADS "${KernelOpt_REFERENCE_THREADS}"
      HINT "the host threads of each correctness test under CTest, e.g. -DKernelOpt_REFERENCE_THREADS=4")
  endif()
  if(NOT KernelOpt_PERF_THRESHOLD MATCHES "^0?\\.[0-9]+$|^0$")
    _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "KernelOpt_PERF_THRESHOLD must be a fraction in [0, 1)"
      KEY KernelOpt_PERF_THRESHOLD "${KernelOpt_PERF_THRESHOLD}"
      HINT "e.g. -DKernelOpt_PERF_THRESHOLD=0.03 for a 3 % band")
  endif()
  if(NOT KernelOpt_PERF_MISSING MATCHES "^(skip|fail)$")
    _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "KernelOpt_PERF_MISSING must be skip or fail"
      KEY KernelOpt_PERF_MISSING "${KernelOpt_PERF_MISSING}"
      HINT "-DKernelOpt_PERF_MISSING=fail on a GPU runner: <k>.perf fails when the gate did not run")
  endif()
  _kernel_opt_check_variant_cache(${kernel})
  _kernel_opt_check_target_names(${kernel})
endfunction()

# Each TARGET's names must be ones kopt can resolve for this declaration
# (framework/src/kopt/decide/targets.cpp): speedup_vs_<impl> names the
# reference, the parent or a baseline (declared after the kernel, hence
# checked here); tflops needs FLOPS, gbps needs BYTES, pct_of_ceiling.<name>
# one of them. peak.<name> and ceiling.<name> depend on the ceilings and
# spec files found at run time: not checked here.
function(_kernel_opt_check_target_names kernel)
  _kernel_opt_get(targets ${kernel} TARGETS)
  _kernel_opt_get(baselines ${kernel} BASELINES)
  _kernel_opt_get(flops ${kernel} FLOPS)
  _kernel_opt_get(bytes ${kernel} BYTES)
  foreach(target IN LISTS targets)
    _kernel_opt_check_expr(error names "${target}" TRUE)
    foreach(name IN LISTS names)
      set(why "")
      set(hint "")
      set(keys "")
      if(name MATCHES "^speedup_vs_(.*)$")
        set(impl "${CMAKE_MATCH_1}")
        if(NOT impl MATCHES "^(reference|parent)$" AND NOT impl IN_LIST baselines)
          list(JOIN baselines ", " pretty)
          if(pretty STREQUAL "")
            set(pretty "(none)")
          endif()
          set(keys KEY Baselines "${pretty}")
          set(why "${kernel} has no baseline '${impl}'")
          set(hint "speedup_vs_<impl> compares with the reference (speedup_vs_reference), the variant's parent (speedup_vs_parent) or a baseline declared with kernel_opt_add_baseline(${kernel} <name> ...)")
        endif()
      elseif(name STREQUAL "tflops" AND flops STREQUAL "")
        set(why "${kernel} has no FLOPS")
        set(hint "tflops is computed from the FLOPS work model: declare FLOPS \"<expression over DIMS>\"")
      elseif(name STREQUAL "gbps" AND bytes STREQUAL "")
        set(why "${kernel} has no BYTES")
        set(hint "gbps is computed from the BYTES work model: declare BYTES \"<expression over DIMS>\"")
      elseif(name MATCHES "^pct_of_ceiling\\." AND flops STREQUAL "" AND bytes STREQUAL "")
        set(why "${kernel} has neither FLOPS nor BYTES")
        set(hint "pct_of_ceiling.<name> is the rate from FLOPS or BYTES over the ceiling: declare the work model")
      endif()
      if(NOT why STREQUAL "")
        _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "TARGET \"${target}\" reads ${name}, but ${why}: it could never be evaluated"
          KEY TARGET "${target}" ${keys}
          HINT "${hint}")
      endif()
    endforeach()
  endforeach()
endfunction()

# The cache variables that name implementations of <kernel> are user text
# that ends up on a build command line: each must name a declared variant
# (KernelOpt_OPTIMIZE_VARIANT_<k>) or a variant or baseline
# (KernelOpt_PROFILE_VARIANT_<k>, a ;-list), checked before anything is
# generated, whether or not the target that uses it is.
function(_kernel_opt_check_variant_cache kernel)
  _kernel_opt_get(variants ${kernel} VARIANTS)
  _kernel_opt_get(baselines ${kernel} BASELINES)
  set(optimize "${KernelOpt_OPTIMIZE_VARIANT_${kernel}}")
  if(NOT optimize STREQUAL "" AND NOT optimize IN_LIST variants)
    string(REPLACE ";" ", " pretty "${variants}")
    _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "KernelOpt_OPTIMIZE_VARIANT_${kernel} is not a variant of ${kernel}"
      KEY KernelOpt_OPTIMIZE_VARIANT_${kernel} "${optimize}"
      KEY Variants "${pretty}"
      HINT "set it to one declared variant, or to \"\" for the newest variant without a record")
  endif()
  foreach(impl IN LISTS KernelOpt_PROFILE_VARIANT_${kernel})
    if(NOT impl IN_LIST variants AND NOT impl IN_LIST baselines)
      set(known ${variants} ${baselines})
      string(REPLACE ";" ", " pretty "${known}")
      _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "KernelOpt_PROFILE_VARIANT_${kernel} names '${impl}', not a variant or baseline of ${kernel}"
        KEY KernelOpt_PROFILE_VARIANT_${kernel} "${KernelOpt_PROFILE_VARIANT_${kernel}}"
        KEY Implementations "${pretty}"
        HINT "a ;-list of declared variants and baselines, or empty for all")
    endif()
  endforeach()
endfunction()
