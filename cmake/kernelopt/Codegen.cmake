# Code generation, run by _kernel_opt_finalize (Generate.cmake): the typed
# entry-point signatures and, per implementation (variant, baseline,
# reference), a shared module of its sources, the entry source compiled
# through a wrapper that checks the entry's signature and exports its
# invoker. Spec.cmake generates what loads the modules.
#
# One module per implementation is what lets existing code adopt as it is:
# its symbols are hidden (visibility, and on ELF a version script exporting
# only kopt_module_info) and it is loaded RTLD_LOCAL, so variants that
# include the same header with external-linkage functions, globals or
# __device__ code each keep their own copy, while one process still times
# every implementation of a shape in interleaved rounds.

# C++ type of one dtype for a backend (cuda or host).
function(_kernel_opt_cxx_type out dtype backend)
  if(dtype STREQUAL "f64")
    set(type double)
  elseif(dtype STREQUAL "f32")
    set(type float)
  elseif(dtype STREQUAL "i32")
    set(type std::int32_t)
  elseif(dtype STREQUAL "i64")
    set(type std::int64_t)
  elseif(dtype STREQUAL "u8")
    set(type std::uint8_t)
  elseif(backend STREQUAL "cuda")
    if(dtype STREQUAL "f16")
      set(type __half)
    else()
      set(type __nv_bfloat16)
    endif()
  else()
    set(type kopt::${dtype})
  endif()
  set(${out} "${type}" PARENT_SCOPE)
endfunction()

# The entry point of <impl> (a variant or baseline name, or "reference"):
# its backend, precision (f64: every floating tensor as double), the C++
# type of its DIMS (DIM_TYPE) and whether it takes the stream (STREAM).
function(_kernel_opt_entry_form kernel impl out_backend out_precision out_dim_type out_stream)
  if(impl STREQUAL "reference")
    _kernel_opt_get(backend ${kernel} REFERENCE_BACKEND)
    _kernel_opt_get(precision ${kernel} REFERENCE_PRECISION)
    set(dim_type int64)
    set(stream LAST)
  else()
    _kernel_opt_get(backend ${kernel} BACKEND)
    set(precision native)
    _kernel_opt_get(dim_type ${kernel} IMPL_${impl}_DIM_TYPE)
    _kernel_opt_get(stream ${kernel} IMPL_${impl}_STREAM)
  endif()
  if(NOT backend STREQUAL "cuda")
    set(stream NONE)
  endif()
  set(${out_backend} ${backend} PARENT_SCOPE)
  set(${out_precision} ${precision} PARENT_SCOPE)
  set(${out_dim_type} ${dim_type} PARENT_SCOPE)
  set(${out_stream} ${stream} PARENT_SCOPE)
endfunction()

# C++ type of a DIM_TYPE.
function(_kernel_opt_dim_cxx_type out dim_type)
  if(dim_type STREQUAL "int")
    set(${out} "int" PARENT_SCOPE)
  elseif(dim_type STREQUAL "size_t")
    set(${out} "std::size_t" PARENT_SCOPE)
  else()
    set(${out} "std::int64_t" PARENT_SCOPE)
  endif()
endfunction()

# The parameter list of <impl>'s entry point: tensors, DIMS, then the
# stream (<out>), and the cast expressions that call it from the
# type-erased buffers (<out_call>).
# Computed once per form: most implementations of a kernel share one.
function(_kernel_opt_parameters out out_call kernel impl)
  _kernel_opt_entry_form(${kernel} ${impl} backend precision dim_type stream)
  _kernel_opt_set(${kernel} IMPL_${impl}_FORM_BACKEND ${backend})
  _kernel_opt_set(${kernel} IMPL_${impl}_FORM_STREAM ${stream})
  set(form "${backend}_${precision}_${dim_type}_${stream}")
  get_property(known GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_FORM_${form}_PARAMETERS SET)
  if(known)
    _kernel_opt_get(params ${kernel} FORM_${form}_PARAMETERS)
    _kernel_opt_get(args ${kernel} FORM_${form}_CALL)
    set(${out} "${params}" PARENT_SCOPE)
    set(${out_call} "${args}" PARENT_SCOPE)
    return()
  endif()
  _kernel_opt_get(names ${kernel} ARG_NAMES)
  _kernel_opt_get(dims ${kernel} DIMS)
  set(params "")
  set(args "")
  set(i 0)
  foreach(name IN LISTS names)
    get_property(arg GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_ARG_${name})
    list(GET arg 0 direction)
    list(GET arg 1 dtype)
    if(precision STREQUAL "f64" AND dtype MATCHES "^(f64|f32|f16|bf16)$")
      set(dtype f64)
    endif()
    _kernel_opt_cxx_type(type ${dtype} ${backend})
    if(direction STREQUAL "in")
      set(type "const ${type}")
    endif()
    list(APPEND params "${type}* ${name}")
    list(APPEND args "static_cast<${type}*>(buffers[${i}])")
    math(EXPR i "${i} + 1")
  endforeach()
  _kernel_opt_dim_cxx_type(dim_cxx ${dim_type})
  set(i 0)
  foreach(dim IN LISTS dims)
    list(APPEND params "${dim_cxx} ${dim}")
    if(dim_type STREQUAL "int64")
      list(APPEND args "dims[${i}]")
    else()
      # Declared shapes fit (checked at configure time).
      list(APPEND args "static_cast<${dim_cxx}>(dims[${i}])")
    endif()
    math(EXPR i "${i} + 1")
  endforeach()
  if(stream STREQUAL "LAST")
    list(APPEND params "cudaStream_t stream")
    list(APPEND args "static_cast<cudaStream_t>(stream)")
  endif()
  list(JOIN params ", " params)
  list(JOIN args ", " args)
  _kernel_opt_set(${kernel} FORM_${form}_PARAMETERS "${params}")
  _kernel_opt_set(${kernel} FORM_${form}_CALL "${args}")
  set(${out} "${params}" PARENT_SCOPE)
  set(${out_call} "${args}" PARENT_SCOPE)
endfunction()

# A declaration of <entry> with type <alias>, inside its namespaces.
function(_kernel_opt_declaration out entry alias)
  string(REGEX REPLACE "^::" "" entry "${entry}")
  string(REPLACE "::" ";" parts "${entry}")
  list(POP_BACK parts name)
  set(open "")
  set(close "")
  foreach(ns IN LISTS parts)
    string(APPEND open "namespace ${ns} { ")
    string(APPEND close " }")
  endforeach()
  set(${out} "${open}${alias} ${name};${close}" PARENT_SCOPE)
endfunction()

# The module of one implementation, target <k>_kopt_<impl>, file
# kopt_<k>_<impl> beside the executables: its sources, the source that
# defines the entry compiled through a wrapper that includes it, then
# checks the entry's type (a mismatch is a compile error that names the
# expected signature) and exports an invoker that calls it.
# Position-independent, hidden symbols; on ELF a version script lets
# nothing but kopt_module_info out, whatever the sources or their static
# libraries declare visible.
function(_kernel_opt_impl_module kernel name role entry sources entry_source libraries options)
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_parameters(signature call ${kernel} ${name})
  _kernel_opt_get(backend ${kernel} IMPL_${name}_FORM_BACKEND)
  _kernel_opt_get(stream ${kernel} IMPL_${name}_FORM_STREAM)
  set(target ${kernel}_kopt_${name})
  get_filename_component(base "${entry_source}" NAME)
  string(REGEX REPLACE "^::" "" qualified "${entry}")
  set(includes "#include <kernelopt/detail/module.hpp>\n")
  set(body "  ::${qualified}(${call});")
  if(backend STREQUAL "cuda" AND stream STREQUAL "NONE")
    string(APPEND includes "#include <kernelopt/detail/default_stream.hpp>\n")
    set(body "  const kopt::detail::default_stream_scope scope(stream);\n${body}")
  endif()
  string(CONFIGURE [=[
namespace kopt_generated_@kernel@ {
namespace {
void invoke_@name@(void* const* buffers, const std::int64_t* dims, void* stream) {
  (void)buffers;
  (void)dims;
  (void)stream;
@body@
}
}  // namespace
}  // namespace kopt_generated_@kernel@

KOPT_MODULE_EXPORT const kopt::module_info* kopt_module_info() {
  static const kopt::module_info info{kopt::k_module_abi, "@kernel@", "@name@",
                                      &kopt_generated_@kernel@::invoke_@name@};
  return &info;
}
]=] exports @ONLY)
  _kernel_opt_get(family ${kernel} IMPL_${name}_FAMILY)
  if(NOT family STREQUAL "")
    # A point also exports its entry under a name of its own, typed, for the
    # generated dispatch that links it (Sweep.cmake); C linkage, so that the
    # version script can name it.
    _kernel_opt_point_call_names(names_call ${kernel} ${name})
    string(REGEX REPLACE "^::" "" plain_entry "${entry}")
    string(APPEND exports "
extern \"C\" __attribute__((visibility(\"default\"))) void kopt_point_${kernel}_${name}(${signature}) {
  ::${plain_entry}(${names_call});
}
")
  endif()
  set(wrapper "${bin}/check/${name}/${base}")
  set(compiled "${sources}")
  list(REMOVE_ITEM compiled "${entry_source}")
  # The wrapper's language follows the entry source's extension; a source
  # that compiles holds the module's export too, a header (compiled through
  # the sources that include it) gets a shim of its own beside it.
  if(base MATCHES "\\.(c|cc|cp|cpp|cxx|c\\+\\+|C|CPP|cu)$")
    set(wrapper_exports "${includes}\n${exports}")
  else()
    set(wrapper_exports "")
    _kernel_opt_declaration(declaration "${entry}" "::kopt_generated_${kernel}::entry_${name}")
    file(CONFIGURE OUTPUT "${bin}/check/${name}/kopt_module.cpp" CONTENT [=[
// Generated by KernelOpt: the export of @role@ '@name@' of kernel '@kernel@'.
#include "kopt_@kernel@_signatures.hpp"
@includes@
@declaration@

@exports@]=] @ONLY)
    list(APPEND compiled "${bin}/check/${name}/kopt_module.cpp")
  endif()
  file(CONFIGURE OUTPUT "${wrapper}" CONTENT [=[
// Generated by KernelOpt: compiles @entry_source@, checks that its entry
// point has the signature ARGS and DIMS give, and exports it to
// @kernel@_kopt_test and @kernel@_kopt_bench, which load this module.
#include "kopt_@kernel@_signatures.hpp"
#include "@entry_source@"
#include <type_traits>
static_assert(std::is_same<decltype(&::@qualified@), ::kopt_generated_@kernel@::entry_@name@*>::value,
              "@role@ '@name@' of kernel '@kernel@': ENTRY @entry@ must have the signature "
              "void @entry@(@signature@)");
@wrapper_exports@]=] @ONLY)
  list(APPEND compiled "${wrapper}")
  if(family STREQUAL "")
    add_library(${target} MODULE ${compiled})
    set(map "${bin}/kopt_exports.map")
  else()
    # Shared, not a module: the family's dispatch links the points it serves.
    add_library(${target} SHARED ${compiled})
    set(map "${bin}/kopt_point_exports.map")
    _kernel_opt_point_target(${kernel} ${name} ${target})
  endif()
  target_include_directories(${target} PRIVATE "${bin}")
  target_link_libraries(${target} PRIVATE KernelOpt::headers ${libraries})
  if(options)
    target_compile_options(${target} PRIVATE ${options})
  endif()
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME kopt_${kernel}_${name}
    LIBRARY_OUTPUT_DIRECTORY "${bin}"
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    # One CUDA runtime in the process (libcudart.so), shared with the
    # executables: the harness's cudaGetLastError sees the module's launches.
    CUDA_RUNTIME_LIBRARY Shared)
  _kernel_opt_get(kernel_backend ${kernel} BACKEND)
  _kernel_opt_get(ref_backend ${kernel} REFERENCE_BACKEND)
  if(NOT backend STREQUAL "cuda" AND (kernel_backend STREQUAL "cuda" OR ref_backend STREQUAL "cuda"))
    # A host implementation (the reference) of a CUDA kernel: the signatures
    # header includes the CUDA runtime's headers (for cudaStream_t and the
    # half types), which a toolkit outside the compiler's default include
    # path (/usr/local/cuda) only provides through CUDA::cudart.
    target_include_directories(${target} PRIVATE $<TARGET_PROPERTY:CUDA::cudart,INTERFACE_INCLUDE_DIRECTORIES>)
  endif()
  if(backend STREQUAL "cuda")
    target_link_libraries(${target} PRIVATE CUDA::cudart)
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CUDA)
    if(options MATCHES "default-stream[ =;]*per-thread")
      target_compile_definitions(${target} PRIVATE KOPT_PER_THREAD_DEFAULT_STREAM)
    endif()
  endif()
  # Relocatable device code (-rdc=true, -dc): device-linked inside the module.
  if(options MATCHES "(^|;)(-rdc=true|--relocatable-device-code=true|-dc|--device-c)(;|$)"
     OR options MATCHES "(^|;)(-rdc|--relocatable-device-code);true(;|$)")
    set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION ON CUDA_RESOLVE_DEVICE_SYMBOLS ON)
  endif()
  if(NOT APPLE AND NOT WIN32)
    target_link_options(${target} PRIVATE "LINKER:--version-script=${map}")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${map}")
  endif()
  set_property(TARGET ${target} APPEND PROPERTY OBJECT_DEPENDS "${entry_source}")
  _kernel_opt_cuda_target(${target})
  if(family STREQUAL "")
    # The executables depend on every module; never on a point, which only
    # the sweep builds (a point that does not compile breaks nothing else).
    set_property(GLOBAL APPEND PROPERTY _KERNEL_OPT_K_${kernel}_MODULES ${target})
    _kernel_opt_set(${kernel} IMPL_${name}_MODULE
      "${CMAKE_SHARED_MODULE_PREFIX}kopt_${kernel}_${name}${CMAKE_SHARED_MODULE_SUFFIX}")
  else()
    _kernel_opt_set(${kernel} IMPL_${name}_MODULE
      "${CMAKE_SHARED_LIBRARY_PREFIX}kopt_${kernel}_${name}${CMAKE_SHARED_LIBRARY_SUFFIX}")
  endif()
endfunction()

# The module of implementation <name> from its declaration (role, entry,
# sources, libraries, options), compiled for its BUILD_ARCHS when it has them.
function(_kernel_opt_declared_module kernel name)
  _kernel_opt_get(role ${kernel} IMPL_${name}_ROLE)
  _kernel_opt_get(entry ${kernel} IMPL_${name}_ENTRY)
  _kernel_opt_get(sources ${kernel} IMPL_${name}_SOURCES)
  _kernel_opt_get(entry_source ${kernel} IMPL_${name}_ENTRY_SOURCE)
  _kernel_opt_get(libraries ${kernel} IMPL_${name}_LIBRARIES)
  _kernel_opt_get(options ${kernel} IMPL_${name}_COMPILE_OPTIONS)
  _kernel_opt_impl_module(${kernel} ${name} ${role} "${entry}" "${sources}" "${entry_source}"
    "${libraries}" "${options}")
  _kernel_opt_get(archs ${kernel} IMPL_${name}_BUILD_ARCHS)
  if(NOT archs STREQUAL "")
    set_property(TARGET ${kernel}_kopt_${name} PROPERTY CUDA_ARCHITECTURES "${archs}")
  endif()
endfunction()

# An ablated build <to> is compiled for the architectures of what it
# ablates, <from>, or skipped with its reason.
function(_kernel_opt_copy_archs kernel from to)
  foreach(field IN ITEMS SKIP_REASON BUILD_ARCHS RUN_ARCHS)
    _kernel_opt_get(value ${kernel} IMPL_${from}_${field})
    _kernel_opt_set(${kernel} IMPL_${to}_${field} "${value}")
  endforeach()
endfunction()

# kopt_<k>_signatures.hpp: the entry type of every implementation, from
# ARGS, DIMS and its DIM_TYPE and STREAM.
function(_kernel_opt_write_signatures kernel)
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_get(backend ${kernel} BACKEND)
  _kernel_opt_get(ref_backend ${kernel} REFERENCE_BACKEND)
  _kernel_opt_get(variants ${kernel} VARIANTS)
  _kernel_opt_get(baselines ${kernel} BASELINES)
  _kernel_opt_get(ablations ${kernel} ABLATIONS)
  _kernel_opt_get(ablation_points ${kernel} ABLATION_POINTS)
  set(includes "#include <cstddef>\n#include <cstdint>\n#include <kernelopt/kernelopt.hpp>\n")
  if(backend STREQUAL "cuda" OR ref_backend STREQUAL "cuda")
    string(APPEND includes "#include <cuda_runtime_api.h>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n")
  endif()
  set(aliases "")
  _kernel_opt_all_points(points ${kernel})
  foreach(name IN LISTS variants baselines points ablations ablation_points ITEMS reference)
    _kernel_opt_parameters(params call ${kernel} ${name})
    string(APPEND aliases "using entry_${name} = void(${params});\n")
  endforeach()
  file(CONFIGURE OUTPUT "${bin}/kopt_${kernel}_signatures.hpp" CONTENT [=[
// Generated by KernelOpt from the declaration of kernel '@kernel@'.
#pragma once
@includes@
namespace kopt_generated_@kernel@ {
@aliases@}  // namespace kopt_generated_@kernel@
]=] @ONLY)
  file(CONFIGURE OUTPUT "${bin}/kopt_exports.map" CONTENT "{\n  global: kopt_module_info;\n  local: *;\n};\n")
  file(CONFIGURE OUTPUT "${bin}/kopt_point_exports.map"
       CONTENT "{\n  global: kopt_module_info; kopt_point_*;\n  local: *;\n};\n")
endfunction()

# The module of every variant, baseline and the reference. A CUDA implementation is compiled for the architectures
# _kernel_opt_impl_archs picks, or not at all when this build cannot run it.
function(_kernel_opt_impl_libraries kernel)
  _kernel_opt_get(backend ${kernel} BACKEND)
  _kernel_opt_get(variants ${kernel} VARIANTS)
  _kernel_opt_get(baselines ${kernel} BASELINES)
  _kernel_opt_get(ref_backend ${kernel} REFERENCE_BACKEND)
  _kernel_opt_all_points(points ${kernel})
  _kernel_opt_get(families ${kernel} FAMILIES)
  foreach(name IN LISTS variants baselines points)
    if(backend STREQUAL "cuda")
      _kernel_opt_impl_archs(${kernel} ${name})
      _kernel_opt_get(skip ${kernel} IMPL_${name}_SKIP_REASON)
      if(NOT skip STREQUAL "")
        continue()
      endif()
    endif()
    if(name IN_LIST families)
      continue()  # after its points: its module is the dispatch (Sweep.cmake)
    endif()
    _kernel_opt_declared_module(${kernel} ${name})
  endforeach()
  foreach(name IN LISTS families)
    _kernel_opt_family_dispatch(${kernel} ${name})
  endforeach()
  if(ref_backend STREQUAL "cuda")
    _kernel_opt_impl_archs(${kernel} reference)
  endif()
  _kernel_opt_get(ref_entry ${kernel} REFERENCE)
  _kernel_opt_get(ref_sources ${kernel} REFERENCE_SOURCES)
  _kernel_opt_get(ref_entry_source ${kernel} REFERENCE_ENTRY_SOURCE)
  _kernel_opt_get(ref_libraries ${kernel} REFERENCE_LIBRARIES)
  _kernel_opt_impl_module(${kernel} reference reference "${ref_entry}" "${ref_sources}" "${ref_entry_source}"
    "${ref_libraries}" "")
endfunction()
