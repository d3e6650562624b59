# Ablation (docs/ablation.md): a variant's METHODS entry <method>=<MACRO>
# is a method that can be switched off. The variant's module is compiled
# with -D<MACRO>=1 for each of its switches; per switch, an ablated module
# <k>_kopt_<v>__no_<method> (implementation <v>__no_<method>) is compiled
# from the same sources with that macro 0 and the others 1. The ablated
# modules and the executables that load them (<k>_ablate_kopt_test,
# <k>_ablate_kopt_bench: the switchable variants, their ablations and the
# reference) are not part of ALL and not loaded by <k>_kopt_test /
# <k>_kopt_bench: an ablated build that does not compile breaks neither
# the project's build nor its tests. `kopt ablate` (target ablate-<k>)
# builds them on demand and records a build failure as a class of its own.

# Run by _kernel_opt_finalize before anything is generated: the ablation
# implementations (ABLATIONS), each with the declaration of the variant it
# ablates; their names must not be those of declared implementations.
function(_kernel_opt_ablation_impls kernel)
  _kernel_opt_get(variants ${kernel} VARIANTS)
  set(ablations "")
  set(ablation_points "")
  set(ablated "")
  foreach(variant IN LISTS variants)
    _kernel_opt_get(switches ${kernel} IMPL_${variant}_SWITCHES)
    if(switches STREQUAL "")
      continue()
    endif()
    list(APPEND ablated ${variant})
    foreach(switch IN LISTS switches)
      string(REGEX MATCH "^([^=]*)=(.*)$" _ "${switch}")
      set(method "${CMAKE_MATCH_1}")
      set(name "${variant}__no_${method}")
      _kernel_opt_declare_ablated(${kernel} "${switch}" "variant '${variant}' ablates" ${variant} ${name}
        "<variant>__no_<method> names the build without <method>"
        ROLE ENTRY SOURCES ENTRY_SOURCE LIBRARIES COMPILE_OPTIONS DIM_TYPE STREAM)
      list(APPEND ablations ${name})
      _kernel_opt_set(${kernel} IMPL_${name}_ABLATES "${variant}")
      _kernel_opt_set(${kernel} IMPL_${name}_SWITCH "${switch}")
      # A family: <variant>__no_<method> is the dispatch over the champion
      # points, each compiled without the method (<point>__no_<method>,
      # Sweep.cmake); which points are the champions is known only once the
      # selection is read, so every point gets its ablated declaration.
      _kernel_opt_get(points ${kernel} IMPL_${variant}_POINTS)
      foreach(point IN LISTS points)
        set(point_name "${point}__no_${method}")
        _kernel_opt_declare_ablated(${kernel} "${switch}" "family '${variant}' ablates its point '${point}'" ${point}
          ${point_name} "<point>__no_<method> names the point's build without <method>"
          ROLE ENTRY SOURCES ENTRY_SOURCE LIBRARIES COMPILE_OPTIONS DIM_TYPE STREAM CUDA_ARCHITECTURES MIN_CC PARAMS
          FAMILY)
        list(APPEND ablation_points ${point_name})
        _kernel_opt_set(${kernel} IMPL_${point_name}_POINT_OF "${point}")
      endforeach()
    endforeach()
  endforeach()
  _kernel_opt_set(${kernel} ABLATIONS "${ablations}")
  _kernel_opt_set(${kernel} ABLATION_POINTS "${ablation_points}")
  _kernel_opt_set(${kernel} ABLATED_VARIANTS "${ablated}")
endfunction()

# Declares the ablated build <to> of <from> (for METHODS entry <switch>):
# the fields named after <naming> copied from <from>. Stops the configure
# when <to> is a declared variant or baseline; <subject> and <naming> word
# the message.
function(_kernel_opt_declare_ablated kernel switch subject from to naming)
  _kernel_opt_get(variants ${kernel} VARIANTS)
  _kernel_opt_get(baselines ${kernel} BASELINES)
  if(to IN_LIST variants OR to IN_LIST baselines)
    _kernel_opt_fail(kernel_opt_add_variant ${kernel} "METHODS entry '${switch}' of ${subject} into '${to}', a declared implementation"
      KEY METHODS "${switch}"
      HINT "rename the variant or baseline '${to}': ${naming}")
  endif()
  foreach(field IN LISTS ARGN)
    _kernel_opt_get(value ${kernel} IMPL_${from}_${field})
    _kernel_opt_set(${kernel} IMPL_${to}_${field} "${value}")
  endforeach()
endfunction()

# -D<MACRO>=<0|1> for every switch of <variant>: 0 for <off> (a method name,
# or "" for the variant itself).
function(_kernel_opt_switch_definitions out kernel variant off)
  _kernel_opt_get(switches ${kernel} IMPL_${variant}_SWITCHES)
  set(definitions "")
  foreach(switch IN LISTS switches)
    string(REGEX MATCH "^([^=]*)=(.*)$" _ "${switch}")
    if(CMAKE_MATCH_1 STREQUAL off)
      list(APPEND definitions "${CMAKE_MATCH_2}=0")
    else()
      list(APPEND definitions "${CMAKE_MATCH_2}=1")
    endif()
  endforeach()
  set(${out} "${definitions}" PARENT_SCOPE)
endfunction()

# After _kernel_opt_impl_libraries: the switch macros on each variant's
# module, and the ablated modules of every variant this build compiles.
function(_kernel_opt_ablation_modules kernel)
  _kernel_opt_get(ablations ${kernel} ABLATIONS)
  _kernel_opt_get(ablated ${kernel} ABLATED_VARIANTS)
  foreach(variant IN LISTS ablated)
    _kernel_opt_switch_definitions(definitions ${kernel} ${variant} "")
    # A family's code is in its points (its module is the dispatch).
    _kernel_opt_get(points ${kernel} IMPL_${variant}_POINTS)
    foreach(impl IN LISTS variant points)
      if(TARGET ${kernel}_kopt_${impl})
        target_compile_definitions(${kernel}_kopt_${impl} PRIVATE ${definitions})
      endif()
    endforeach()
  endforeach()
  set(built "")
  foreach(name IN LISTS ablations)
    _kernel_opt_get(variant ${kernel} IMPL_${name}_ABLATES)
    if(NOT TARGET ${kernel}_kopt_${variant})
      continue()  # not compiled in this build (its architectures), or a family without a selection
    endif()
    _kernel_opt_get(points ${kernel} IMPL_${variant}_POINTS)
    if(NOT points STREQUAL "")
      get_property(modules GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_MODULES)
      _kernel_opt_family_ablation(${kernel} ${variant} ${name})
      set_property(GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_MODULES ${modules})
      list(APPEND built ${name})
      continue()
    endif()
    _kernel_opt_copy_archs(${kernel} ${variant} ${name})
    get_property(modules GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_MODULES)
    _kernel_opt_declared_module(${kernel} ${name})
    # Not a dependency of <k>_kopt_test / <k>_kopt_bench.
    set_property(GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_MODULES ${modules})
    _kernel_opt_get(switch ${kernel} IMPL_${name}_SWITCH)
    string(REGEX MATCH "^([^=]*)=" _ "${switch}")
    _kernel_opt_switch_definitions(definitions ${kernel} ${variant} "${CMAKE_MATCH_1}")
    target_compile_definitions(${kernel}_kopt_${name} PRIVATE ${definitions})
    set_target_properties(${kernel}_kopt_${name} PROPERTIES EXCLUDE_FROM_ALL TRUE)
    list(APPEND built ${name})
  endforeach()
  _kernel_opt_set(${kernel} ABLATIONS_BUILT "${built}")
endfunction()

# <k>_ablate_kopt_test / <k>_ablate_kopt_bench (not in ALL): the variants
# with switches, each followed by its ablations, and the reference. They
# depend on the variants' modules and the reference's, not on the ablated
# ones, which kopt ablate builds one by one.
function(_kernel_opt_ablation_executables kernel)
  _kernel_opt_get(built ${kernel} ABLATIONS_BUILT)
  if(built STREQUAL "")
    return()
  endif()
  set(impls "")
  set(modules ${kernel}_kopt_reference)
  set(variants "")
  foreach(name IN LISTS built)
    _kernel_opt_get(variant ${kernel} IMPL_${name}_ABLATES)
    if(NOT variant IN_LIST variants)
      list(APPEND variants ${variant})
      list(APPEND impls ${variant})
      list(APPEND modules ${kernel}_kopt_${variant})
    endif()
    list(APPEND impls ${name})
  endforeach()
  _kernel_opt_write_spec_file(${kernel} ablation_spec _ablate "${impls}" "")
  _kernel_opt_write_mains_for(${kernel} ablation_spec _ablate)
  _kernel_opt_executables_for(${kernel} _ablate "${modules}")
endfunction()

# ablate-<k>: kopt ablate on the accepted best (the champion); kopt builds
# the ablated modules itself, each on its own, so that one that does not
# compile is a result, not a failed build.
function(_kernel_opt_ablation_target kernel)
  _kernel_opt_get(built ${kernel} ABLATIONS_BUILT)
  if(built STREQUAL "" OR NOT TARGET KernelOpt::kopt)
    return()
  endif()
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  add_custom_target(ablate-${kernel}
    COMMAND $<TARGET_FILE:KernelOpt::kopt> ablate --manifest "${bin}/manifest.json" --build-target
    DEPENDS ${kernel}_ablate_kopt_test ${kernel}_ablate_kopt_bench KernelOpt::kopt
    USES_TERMINAL
    VERBATIM
    COMMENT "KernelOpt: ablation of ${kernel}'s accepted best (each switchable METHOD off)")
endfunction()
