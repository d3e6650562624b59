# profile-<k>: Nsight Compute on one launch per implementation x shape of a
# CUDA kernel's benchmark executable in its profile mode, imported into
# <build>/kernelopt/<k>/results/profile.json (kernelopt.profile; with several
# implementations also profile.<impl>.json, the file `kopt record --profile`
# takes) by
#   kopt profile --manifest M --out FILE --allow-unavailable [--ncu PATH] ...
# Without ncu, or when the counters cannot be read, the target says so and
# writes {"status": "unavailable", "reason": ...}: not a build failure.
# docs/profiling.md describes the collection and the classification.
#
# Cache variables: KernelOpt_NCU (ncu; not found: profiling unavailable),
# KernelOpt_PROFILE_QUICK (QUICK_SHAPES only), KernelOpt_CEILINGS (a
# kernelopt.ceilings file for the roofline), KernelOpt_SPECS_DIR (spec files),
# KernelOpt_NCU_METRICS (replaces the default metric list),
# KernelOpt_PROFILE_VARIANT_<k> (the implementations to profile; empty: all).

# ncu, cached in KernelOpt_NCU: PATH, the CUDA toolkit, then the standalone
# Nsight Compute installs (/opt/nvidia/nsight-compute/<version>).
function(_kernel_opt_find_ncu out)
  set(hints "")
  if(CUDAToolkit_BIN_DIR)
    list(APPEND hints "${CUDAToolkit_BIN_DIR}")
  endif()
  if(CMAKE_CUDA_COMPILER_TOOLKIT_ROOT)  # the compiler's toolkit, also where CUDAToolkit_* are not visible
    list(APPEND hints "${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}/bin")
  endif()
  file(GLOB installs LIST_DIRECTORIES true "/opt/nvidia/nsight-compute/*" "/usr/local/cuda/nsight-compute*")
  list(SORT installs COMPARE NATURAL ORDER DESCENDING)  # newest version first
  find_program(KernelOpt_NCU NAMES ncu HINTS ${hints} PATHS /usr/local/cuda/bin ${installs}
    DOC "Nsight Compute CLI for the profile-<k> targets (not found: profiling unavailable)")
  if(KernelOpt_NCU)
    set(${out} "${KernelOpt_NCU}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# The spec files: the source tree's framework/specs, or the installed
# <prefix>/share/kernelopt/specs.
function(_kernel_opt_specs_dir out)
  get_property(cmake_dir GLOBAL PROPERTY _KERNEL_OPT_CMAKE_DIR)
  set(dir "")
  foreach(candidate IN ITEMS "${cmake_dir}/../framework/specs" "${cmake_dir}/../../../share/kernelopt/specs")
    if(dir STREQUAL "" AND IS_DIRECTORY "${candidate}")
      cmake_path(NORMAL_PATH candidate OUTPUT_VARIABLE dir)
    endif()
  endforeach()
  set(KernelOpt_SPECS_DIR "${dir}" CACHE PATH "KernelOpt's GPU spec files (kernelopt.spec) for the roofline")
  set(${out} "${KernelOpt_SPECS_DIR}" PARENT_SCOPE)
endfunction()

# _kernel_opt_profile_target(<kernel>): the profile-<k> target. Called by
# _kernel_opt_finalize once every variant is known.
function(_kernel_opt_profile_target kernel)
  _kernel_opt_get(backend ${kernel} BACKEND)
  if(NOT backend STREQUAL "cuda" OR NOT TARGET KernelOpt::kopt)
    return()
  endif()
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  set(KernelOpt_PROFILE_QUICK OFF CACHE BOOL "profile-<k>: profile the QUICK_SHAPES only")
  set(KernelOpt_CEILINGS "" CACHE FILEPATH "A kernelopt.ceilings file (kopt ceilings) for the profile roofline")
  set(KernelOpt_NCU_METRICS "" CACHE STRING "profile-<k>: ncu --metrics list replacing KernelOpt's default (empty: default)")
  set(KernelOpt_PROFILE_VARIANT_${kernel} "" CACHE STRING
    "Implementations profile-${kernel} profiles (;-list of variants and baselines; empty: all)")

  set(args --manifest "${bin}/manifest.json" --out "${bin}/results/profile.json" --allow-unavailable)
  _kernel_opt_find_ncu(ncu)
  _kernel_opt_set(${kernel} TOOL_NCU "${ncu}")
  if(ncu)
    list(APPEND args --ncu "${ncu}")
  endif()
  _kernel_opt_specs_dir(specs)
  _kernel_opt_set(${kernel} TOOL_SPECS_DIR "${specs}")
  if(specs)
    list(APPEND args --specs-dir "${specs}")
  endif()
  if(KernelOpt_PROFILE_QUICK)
    list(APPEND args --quick)
  endif()
  if(KernelOpt_CEILINGS)
    list(APPEND args --ceilings "${KernelOpt_CEILINGS}")
  endif()
  if(KernelOpt_NCU_METRICS)
    list(APPEND args --metrics "${KernelOpt_NCU_METRICS}")
  endif()
  foreach(impl IN LISTS KernelOpt_PROFILE_VARIANT_${kernel})
    list(APPEND args --variant "${impl}")
  endforeach()
  add_custom_target(profile-${kernel}
    COMMAND $<TARGET_FILE:KernelOpt::kopt> profile ${args}
    DEPENDS ${kernel}_kopt_bench KernelOpt::kopt
    USES_TERMINAL
    VERBATIM
    COMMENT "KernelOpt: Nsight Compute profile of ${kernel} (one launch per implementation and shape)")
endfunction()
