# CUDA architectures: what a variant needs (kernel_opt_add_variant's
# CUDA_ARCHITECTURES and MIN_COMPUTE_CAPABILITY) against what the build
# targets (the consumer's CMAKE_CUDA_ARCHITECTURES, CUDAARCHS or native).
# A variant that this build cannot run is not compiled: configure says so
# once, and its tests report SKIPPED with the reason. A variant that is
# built records the architectures its device code was built for, which the
# CUDA backend checks against the device at run time (core/cuda_arch.hpp).

# _kernel_opt_parse_arch_needs(<fn> <kernel> <impl>): validates the caller's
# arg_CUDA_ARCHITECTURES and arg_MIN_COMPUTE_CAPABILITY and stores them as
# IMPL_<impl>_CUDA_ARCHITECTURES and IMPL_<impl>_MIN_CC (10 * major + minor).
function(_kernel_opt_parse_arch_needs fn kernel impl)
  set(archs "")
  foreach(arch IN LISTS arg_CUDA_ARCHITECTURES)
    _kernel_opt_stray_keyword(${fn} ${kernel} CUDA_ARCHITECTURES "${arch}")
    if(NOT arch MATCHES "^[1-9][0-9]*[af]?$")
      _kernel_opt_fail(${fn} ${kernel} "CUDA_ARCHITECTURES entry '${arch}' of '${impl}' is not an architecture"
        KEY CUDA_ARCHITECTURES "${arg_CUDA_ARCHITECTURES}"
        HINT "write architectures as CMAKE_CUDA_ARCHITECTURES does, without -real/-virtual: 80, 90a, 100f")
    endif()
    list(APPEND archs "${arch}")
  endforeach()
  set(min_cc "")
  if(DEFINED arg_MIN_COMPUTE_CAPABILITY)
    if(NOT arg_MIN_COMPUTE_CAPABILITY MATCHES "^([1-9][0-9]?)\\.([0-9])$")
      _kernel_opt_fail(${fn} ${kernel} "MIN_COMPUTE_CAPABILITY '${arg_MIN_COMPUTE_CAPABILITY}' of '${impl}' is not a compute capability"
        KEY MIN_COMPUTE_CAPABILITY "${arg_MIN_COMPUTE_CAPABILITY}"
        HINT "write <major>.<minor>, e.g. 8.0 or 9.0")
    endif()
    math(EXPR min_cc "${CMAKE_MATCH_1} * 10 + ${CMAKE_MATCH_2}")
    foreach(arch IN LISTS archs)
      string(REGEX MATCH "^[0-9]+" number "${arch}")
      if(number LESS min_cc)
        _kernel_opt_fail(${fn} ${kernel} "CUDA_ARCHITECTURES entry '${arch}' of '${impl}' is below its MIN_COMPUTE_CAPABILITY ${arg_MIN_COMPUTE_CAPABILITY}"
          KEY CUDA_ARCHITECTURES "${arg_CUDA_ARCHITECTURES}" KEY MIN_COMPUTE_CAPABILITY "${arg_MIN_COMPUTE_CAPABILITY}"
          HINT "code for '${arch}' could never run where the variant may run: remove it, or lower MIN_COMPUTE_CAPABILITY")
      endif()
    endforeach()
  endif()
  if(NOT archs STREQUAL "" OR NOT min_cc STREQUAL "")
    _kernel_opt_get(backend ${kernel} BACKEND)
    if(NOT backend STREQUAL "cuda")
      if(archs STREQUAL "")
        set(keyword MIN_COMPUTE_CAPABILITY)
      else()
        set(keyword CUDA_ARCHITECTURES)
      endif()
      _kernel_opt_fail(${fn} ${kernel} "'${impl}' sets ${keyword}, but kernel '${kernel}' has BACKEND ${backend}"
        HINT "architectures apply to BACKEND cuda kernels; remove ${keyword}")
    endif()
  endif()
  _kernel_opt_set(${kernel} IMPL_${impl}_CUDA_ARCHITECTURES "${archs}")
  _kernel_opt_set(${kernel} IMPL_${impl}_MIN_CC "${min_cc}")
endfunction()

# _kernel_opt_native_without_gpu(<out>): TRUE when the build asks for
# native and CMake found no GPU: CMake then refuses to generate any CUDA
# target, so KernelOpt builds its own for nvcc's default architecture
# (CUDA_ARCHITECTURES OFF) and skips the variants that declare needs. The
# top-level CMakeLists.txt of KernelOpt does the same for the framework's own
# targets (it records that here).
function(_kernel_opt_native_without_gpu out)
  get_property(fallback GLOBAL PROPERTY _KERNEL_OPT_NATIVE_WITHOUT_GPU)
  if(NOT fallback AND CMAKE_CUDA_ARCHITECTURES STREQUAL "native" AND "${CMAKE_CUDA_ARCHITECTURES_NATIVE}" STREQUAL "")
    set(fallback TRUE)
    message(STATUS "KernelOpt: CMAKE_CUDA_ARCHITECTURES is native and CMake found no GPU: "
                   "KernelOpt's targets are built for nvcc's default architecture (docs/getting-started.md)")
    set_property(GLOBAL PROPERTY _KERNEL_OPT_NATIVE_WITHOUT_GPU TRUE)
  endif()
  if(fallback)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# _kernel_opt_cuda_target(<target>): a CUDA target KernelOpt generates builds
# for nvcc's default architecture where native found no GPU.
function(_kernel_opt_cuda_target target)
  _kernel_opt_native_without_gpu(fallback)
  get_property(archs TARGET ${target} PROPERTY CUDA_ARCHITECTURES)
  if(fallback AND archs STREQUAL "native")
    set_property(TARGET ${target} PROPERTY CUDA_ARCHITECTURES OFF)
  endif()
endfunction()

# _kernel_opt_build_archs(<kernel> <out> <why>): the architectures this build targets
# as explicit entries (80, 90a-real, 90-virtual), read from
# CMAKE_CUDA_ARCHITECTURES where the kernel was declared. <out> is empty when
# they are unknown: <why> then says why (OFF: the consumer's own flags decide;
# native without a GPU at configure time: nvcc's default architecture).
function(_kernel_opt_build_archs kernel out why)
  set(value "${CMAKE_CUDA_ARCHITECTURES}")
  set(reason "")
  _kernel_opt_native_without_gpu(fallback)
  if(fallback)
    set(value "")
    set(reason "CMAKE_CUDA_ARCHITECTURES is native and CMake found no GPU (built for nvcc's default architecture)")
  elseif(value STREQUAL "native")
    set(value "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
  elseif(value STREQUAL "all")
    set(value "${CMAKE_CUDA_ARCHITECTURES_ALL}")
  elseif(value STREQUAL "all-major")
    set(value "${CMAKE_CUDA_ARCHITECTURES_ALL_MAJOR}")
  elseif(NOT value OR value STREQUAL "")
    set(value "")
    set(reason "CMAKE_CUDA_ARCHITECTURES is '${CMAKE_CUDA_ARCHITECTURES}': the architectures come from the compiler flags")
  endif()
  foreach(entry IN LISTS value)
    if(NOT entry MATCHES "^[1-9][0-9]*[af]?(-real|-virtual)?$")
      _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "CMAKE_CUDA_ARCHITECTURES entry '${entry}' is not an architecture"
        KEY CMAKE_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}"
        HINT "e.g. 80, 90a, 80-real;90-virtual, native, all, all-major")
    endif()
  endforeach()
  set(${out} "${value}" PARENT_SCOPE)
  set(${why} "${reason}" PARENT_SCOPE)
endfunction()

# _kernel_opt_impl_archs(<kernel> <impl>): decides, for a CUDA implementation,
# IMPL_<impl>_BUILD_ARCHS (the entries to compile for; empty: the build's
# default) and IMPL_<impl>_RUN_ARCHS (what its device code will hold, for the
# run-time check; empty: unknown), or IMPL_<impl>_SKIP_REASON when this build
# cannot run it. Prints one message per skipped implementation.
function(_kernel_opt_impl_archs kernel impl)
  _kernel_opt_get(needs ${kernel} IMPL_${impl}_CUDA_ARCHITECTURES)
  _kernel_opt_get(min_cc ${kernel} IMPL_${impl}_MIN_CC)
  _kernel_opt_build_archs(${kernel} configured unknown_why)
  set(build "")
  set(skip "")
  if(NOT needs STREQUAL "" OR NOT min_cc STREQUAL "")
    set(wanted "")
    if(NOT needs STREQUAL "")
      list(JOIN needs " " pretty)
      list(APPEND wanted "CUDA_ARCHITECTURES ${pretty}")
    endif()
    if(NOT min_cc STREQUAL "")
      math(EXPR major "${min_cc} / 10")
      math(EXPR minor "${min_cc} % 10")
      list(APPEND wanted "MIN_COMPUTE_CAPABILITY ${major}.${minor}")
    endif()
    list(JOIN wanted " and " wanted)
    _kernel_opt_native_without_gpu(fallback)
    if(fallback)
      set(skip "needs ${wanted}; ${unknown_why}")
    elseif(NOT configured STREQUAL "")
      foreach(entry IN LISTS configured)
        string(REGEX MATCH "^([0-9]+)([af]?)" base "${entry}")
        set(number "${CMAKE_MATCH_1}")
        if(NOT needs STREQUAL "" AND NOT base IN_LIST needs)
          continue()
        endif()
        if(NOT min_cc STREQUAL "" AND number LESS min_cc)
          continue()
        endif()
        list(APPEND build "${entry}")
      endforeach()
      if(build STREQUAL "")
        string(REPLACE ";" " " targets "${CMAKE_CUDA_ARCHITECTURES}")
        set(skip "needs ${wanted}; this build targets CMAKE_CUDA_ARCHITECTURES ${targets}")
      endif()
    endif()
  endif()
  set(run "${build}")
  if(run STREQUAL "")
    set(run "${configured}")
  endif()
  if(NOT skip STREQUAL "")
    set(run "")
    message(STATUS "KernelOpt: ${kernel} ${impl} is not built: ${skip}; its tests report SKIPPED")
  endif()
  _kernel_opt_set(${kernel} IMPL_${impl}_BUILD_ARCHS "${build}")
  _kernel_opt_set(${kernel} IMPL_${impl}_RUN_ARCHS "${run}")
  _kernel_opt_set(${kernel} IMPL_${impl}_SKIP_REASON "${skip}")
endfunction()
