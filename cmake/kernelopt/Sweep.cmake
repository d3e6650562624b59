# Families of compile-time points (kernel_opt_add_variant ... PARAMS):
# parsing and checking PARAMS / PARAM_CONSTRAINTS / MAX_POINTS, enumerating
# and sampling the points, and, at generation, one shared library per point
# (built only by the sweep, never by ALL, so a point that fails to compile is
# a recorded result, not a broken build), the sweep and select targets, and
# the generated dispatch of a family that has a selection (docs/sweeps.md).

# The full space (the product of the PARAMS value counts) is enumerated at
# configure time: at most this many combinations.
set_property(GLOBAL PROPERTY _KERNEL_OPT_MAX_SPACE 10000)

# Parses the caller's arg_PARAMS, arg_PARAM_CONSTRAINTS and arg_MAX_POINTS
# for variant <variant>; stores the family's params and its points
# (IMPL_<variant>_POINTS, IMPL_<point>_PARAMS). Does nothing without PARAMS.
function(_kernel_opt_parse_family fn kernel variant)
  if(NOT DEFINED arg_PARAMS)
    foreach(keyword IN ITEMS PARAM_CONSTRAINTS MAX_POINTS)
      if(DEFINED arg_${keyword})
        _kernel_opt_fail(${fn} ${kernel} "variant '${variant}' sets ${keyword} without PARAMS"
          KEY ${keyword} "${arg_${keyword}}"
          HINT "${keyword} applies to a family: declare its parameters with PARAMS \"NAME=v1,v2\" ...")
      endif()
    endforeach()
    _kernel_opt_set(${kernel} IMPL_${variant}_POINTS "")
    return()
  endif()
  _kernel_opt_get(dims ${kernel} DIMS)
  if(arg_PARAMS STREQUAL "")
    _kernel_opt_fail(${fn} ${kernel} "PARAMS of variant '${variant}' is empty"
      KEY PARAMS ""
      HINT "a family needs at least one parameter with its values, e.g. PARAMS \"BM=64,128\"; without PARAMS the variant is a plain one")
  endif()
  set(names "")
  set(counts "")
  foreach(entry IN LISTS arg_PARAMS)
    _kernel_opt_stray_keyword(${fn} ${kernel} PARAMS "${entry}")
    string(REPLACE " " "" compact "${entry}")
    if(NOT compact MATCHES "^([^=]*)=(.*)$")
      _kernel_opt_fail(${fn} ${kernel} "malformed PARAMS entry \"${entry}\" of variant '${variant}'"
        KEY PARAMS "${entry}"
        HINT "write \"<NAME>=<value>,<value>,...\", e.g. \"BM=64,128\"")
    endif()
    set(name "${CMAKE_MATCH_1}")
    set(values_text "${CMAKE_MATCH_2}")
    if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      _kernel_opt_fail(${fn} ${kernel} "PARAMS entry \"${entry}\" of variant '${variant}': '${name}' is not an identifier"
        KEY PARAMS "${entry}"
        HINT "a parameter name becomes the macro KOPT_PARAM_<NAME> and kopt::params::<NAME>")
    endif()
    _kernel_opt_cxx_name(${fn} ${kernel} "PARAMS entry \"${entry}\" of variant '${variant}': name" "${name}"
      KEY PARAMS "${entry}")
    _kernel_opt_params_name_taken(why "${name}")
    if(NOT why STREQUAL "")
      _kernel_opt_fail(${fn} ${kernel} "PARAMS entry \"${entry}\" of variant '${variant}': '${name}' ${why}"
        KEY PARAMS "${entry}"
        HINT "the name becomes kopt::params::<NAME> in the generated kernelopt_params.hpp: choose another name")
    endif()
    if(name IN_LIST names)
      _kernel_opt_fail(${fn} ${kernel} "PARAMS of variant '${variant}' declares '${name}' twice"
        KEY PARAMS "${arg_PARAMS}")
    endif()
    if(name IN_LIST dims)
      _kernel_opt_fail(${fn} ${kernel} "PARAMS entry \"${entry}\" of variant '${variant}': '${name}' is also a DIM"
        KEY DIMS "${dims}"
        HINT "PARAM_CONSTRAINTS refer to both: give the parameter another name")
    endif()
    if(values_text STREQUAL "")
      _kernel_opt_fail(${fn} ${kernel} "PARAMS entry \"${entry}\" of variant '${variant}' has no values"
        KEY PARAMS "${entry}")
    endif()
    string(REPLACE "," ";" values "${values_text}")
    if(values_text MATCHES "(^,|,,|,$)")
      _kernel_opt_fail(${fn} ${kernel} "PARAMS entry \"${entry}\" of variant '${variant}' has an empty value"
        KEY PARAMS "${entry}")
    endif()
    set(seen "")
    foreach(value IN LISTS values)
      string(REGEX REPLACE "^-" "" magnitude "${value}")
      if(NOT value MATCHES "^-?[0-9]+$")
        _kernel_opt_fail(${fn} ${kernel} "PARAMS entry \"${entry}\" of variant '${variant}': value '${value}' is not an integer"
          KEY PARAMS "${entry}"
          HINT "parameter values are integers (int64), compile-time constants of each point")
      endif()
      _kernel_opt_int64_literal(checked "${magnitude}")
      if(checked STREQUAL "overflow")
        _kernel_opt_fail(${fn} ${kernel} "PARAMS entry \"${entry}\" of variant '${variant}': value '${value}' is beyond int64"
          KEY PARAMS "${entry}")
      endif()
      if(value MATCHES "^-" AND NOT checked STREQUAL "0")
        set(checked "-${checked}")  # normalized: -0 is 0, 007 is 7
      endif()
      if(checked IN_LIST seen)
        set(as "")
        if(NOT checked STREQUAL value)
          set(as " ('${value}' is ${checked})")
        endif()
        _kernel_opt_fail(${fn} ${kernel} "PARAMS entry \"${entry}\" of variant '${variant}' lists '${value}' twice${as}"
          KEY PARAMS "${entry}"
          HINT "values are integers, compared as numbers: -0 is 0, 007 is 7")
      endif()
      list(APPEND seen "${checked}")
    endforeach()
    list(APPEND names "${name}")
    list(LENGTH seen n)
    list(APPEND counts ${n})
    set(values_${name} "${seen}")
  endforeach()

  set(max_points "")
  if(DEFINED arg_MAX_POINTS)
    if(NOT arg_MAX_POINTS MATCHES "^[1-9][0-9]?[0-9]?[0-9]?[0-9]?$")
      _kernel_opt_fail(${fn} ${kernel} "MAX_POINTS '${arg_MAX_POINTS}' of variant '${variant}' is not an integer from 1 to 99999"
        KEY MAX_POINTS "${arg_MAX_POINTS}"
        HINT "the most points of the family that are built and measured (docs/sweeps.md, sampling)")
    endif()
    set(max_points ${arg_MAX_POINTS})
  endif()

  set(known ${names} ${dims})
  set(constraints "")
  foreach(constraint IN LISTS arg_PARAM_CONSTRAINTS)
    _kernel_opt_stray_keyword(${fn} ${kernel} PARAM_CONSTRAINTS "${constraint}")
    _kernel_opt_check_expr(error used "${constraint}" TRUE)
    if(error STREQUAL "" AND NOT constraint MATCHES "(<|>|==|!=)")
      set(error "not a comparison")
    endif()
    if(error STREQUAL "")
      foreach(use IN LISTS used)
        if(NOT use IN_LIST known)
          set(error "unknown name '${use}'")
          break()
        endif()
      endforeach()
    endif()
    if(error STREQUAL "" AND NOT constraint MATCHES "^([^<>=!]+)(<=|>=|==|!=|<|>)([^<>=!]+)$")
      set(error "more than one comparison")
    endif()
    if(NOT error STREQUAL "")
      string(REPLACE ";" ", " pretty "${known}")
      _kernel_opt_fail(${fn} ${kernel} "malformed PARAM_CONSTRAINTS entry of variant '${variant}': ${error}"
        KEY PARAM_CONSTRAINTS "${constraint}"
        KEY "Known names" "${pretty}"
        HINT "a constraint is one integer comparison over PARAMS and DIMS, e.g. \"BM*BN <= 16384\" or \"M % BM == 0\"")
    endif()
    list(APPEND constraints "${constraint}")
  endforeach()

  # The full space, in odometer order: the first parameter varies slowest.
  get_property(limit GLOBAL PROPERTY _KERNEL_OPT_MAX_SPACE)
  set(space 1)
  foreach(n IN LISTS counts)
    math(EXPR space "${space} * ${n}")
    if(space GREATER limit)
      _kernel_opt_fail(${fn} ${kernel} "PARAMS of variant '${variant}' span more than ${limit} combinations"
        KEY PARAMS "${arg_PARAMS}"
        HINT "fewer values per parameter; MAX_POINTS samples a space after enumeration, it does not bound the enumeration")
    endif()
  endforeach()
  _kernel_opt_get(shapes ${kernel} SHAPES)
  _kernel_opt_get(quick ${kernel} QUICK_SHAPES)
  set(all_shapes ${shapes} ${quick})
  list(REMOVE_DUPLICATES all_shapes)
  set(valid "")
  math(EXPR last "${space} - 1")
  list(LENGTH names n_names)
  foreach(index RANGE 0 ${last})
    set(rest ${index})
    set(bindings "")
    set(i ${n_names})
    while(i GREATER 0)
      math(EXPR i "${i} - 1")
      list(GET names ${i} name)
      list(GET counts ${i} n)
      math(EXPR pick "${rest} % ${n}")
      math(EXPR rest "${rest} / ${n}")
      list(GET values_${name} ${pick} value)
      list(PREPEND bindings "${name}=${value}")
    endwhile()
    _kernel_opt_family_point_holds(holds error at "${constraints}" "${bindings}" "${all_shapes}")
    if(NOT error STREQUAL "")
      list(GET at 0 constraint)
      list(GET at 1 shape)
      string(REPLACE ";" "," point "${bindings}")
      _kernel_opt_fail(${fn} ${kernel} "PARAM_CONSTRAINTS entry of variant '${variant}' cannot be evaluated exactly at point ${variant}_p${index}: ${error}"
        KEY PARAM_CONSTRAINTS "${constraint}"
        KEY Point "${point}"
        KEY Shape "${shape}"
        HINT "constraints are evaluated exactly at configure, in rationals of int64: sqrt and log2 only where their value is rational, ^ only with an integer exponent; an earlier constraint that drops a point guards the later ones (\"X != 0\" before \"M % X == 0\")")
    endif()
    if(holds)
      list(APPEND valid "${index}")
      set(bindings_${index} "${bindings}")
    endif()
  endforeach()
  list(LENGTH valid n_valid)
  if(n_valid EQUAL 0)
    _kernel_opt_fail(${fn} ${kernel} "no point of variant '${variant}' satisfies PARAM_CONSTRAINTS on every shape"
      KEY PARAM_CONSTRAINTS "${constraints}"
      KEY PARAMS "${arg_PARAMS}")
  endif()
  # Sampling (MAX_POINTS n < valid points): n points evenly spaced over the
  # valid ones in enumeration order, the j-th at floor(j * valid / n):
  # deterministic, the first point always in, every region of the space
  # represented (docs/sweeps.md).
  set(chosen "${valid}")
  if(NOT max_points STREQUAL "" AND max_points LESS n_valid)
    set(chosen "")
    math(EXPR top "${max_points} - 1")
    foreach(j RANGE 0 ${top})
      math(EXPR at "${j} * ${n_valid} / ${max_points}")
      list(GET valid ${at} index)
      list(APPEND chosen ${index})
    endforeach()
  endif()
  set(points "")
  foreach(index IN LISTS chosen)
    set(point "${variant}_p${index}")
    _kernel_opt_check_name(${fn} ${kernel} "point name" "${point}")
    list(APPEND points "${point}")
    _kernel_opt_set(${kernel} IMPL_${point}_PARAMS "${bindings_${index}}")
    _kernel_opt_set(${kernel} IMPL_${point}_FAMILY "${variant}")
  endforeach()
  set(params_decl "")
  foreach(name IN LISTS names)
    string(REPLACE ";" "," v "${values_${name}}")
    list(APPEND params_decl "${name}=${v}")
  endforeach()
  _kernel_opt_set(${kernel} IMPL_${variant}_PARAMS "${params_decl}")
  _kernel_opt_set(${kernel} IMPL_${variant}_PARAM_CONSTRAINTS "${constraints}")
  _kernel_opt_set(${kernel} IMPL_${variant}_MAX_POINTS "${max_points}")
  _kernel_opt_set(${kernel} IMPL_${variant}_SPACE "${space}")
  _kernel_opt_set(${kernel} IMPL_${variant}_VALID "${n_valid}")
  _kernel_opt_set(${kernel} IMPL_${variant}_POINTS "${points}")
endfunction()

# <out_why>: why <name> cannot be a parameter of kernelopt_params.hpp
# (Sweep's _kernel_opt_family_points writes it), "" when it can: the header
# declares kopt::params::point itself, a point is compiled with the macros
# KOPT_PARAM_<NAME> and KOPT_POINT, and the header includes <cstdint>, whose
# macros (SIZE_MAX, INT64_C, ...) would rewrite the declaration.
function(_kernel_opt_params_name_taken out_why name)
  set(why "")
  if(name STREQUAL "point")
    set(why "is declared by kernelopt_params.hpp itself (kopt::params::point, the point's name)")
  elseif(name MATCHES "^KOPT_")
    set(why "begins with KOPT_, the prefix of the macros a point is compiled with (KOPT_PARAM_<NAME>, KOPT_POINT)")
  elseif(name MATCHES "^(U?INT(8|16|32|64|PTR|MAX)_(MAX|MIN|C|WIDTH)|U?INT_(LEAST|FAST)(8|16|32|64)_(MAX|MIN|WIDTH)|(PTRDIFF|SIG_ATOMIC|WCHAR|WINT)_(MAX|MIN|WIDTH)|SIZE_(MAX|WIDTH))$")
    set(why "is a macro of <cstdint>, which kernelopt_params.hpp includes")
  endif()
  set(${out_why} "${why}" PARENT_SCOPE)
endfunction()

# <out>: TRUE when every constraint holds with <bindings> (NAME=value) on
# every shape of <shapes>, evaluated exactly (rationals, Rational.cmake), in
# order: the point is dropped at the first constraint that does not hold,
# so an earlier one can guard a later one ("X != 0" before "M % X == 0").
# <out_error>: "" or why a constraint cannot be evaluated exactly at this
# point (a division by zero, a value beyond int64, sqrt(2)); <out_at> the
# constraint and shape it names.
function(_kernel_opt_family_point_holds out out_error out_at constraints bindings shapes)
  set(${out_error} "" PARENT_SCOPE)
  foreach(constraint IN LISTS constraints)
    string(REGEX MATCH "^([^<>=!]+)(<=|>=|==|!=|<|>)([^<>=!]+)$" _ "${constraint}")
    set(sides "${CMAKE_MATCH_1}" "${CMAKE_MATCH_3}")
    set(op "${CMAKE_MATCH_2}")
    foreach(shape IN LISTS shapes)
      string(REPLACE "," ";" shape_bindings "${shape}")
      set(values "")
      foreach(side IN LISTS sides)
        # Integer arithmetic first (the usual case, and faster); anything it
        # cannot settle (a fraction, sqrt, a divisor of zero) exactly.
        _kernel_opt_eval_int64(value "${side}" ${bindings} ${shape_bindings})
        if(value MATCHES "^-?[0-9]+$")
          set(value "${value}/1")
        else()
          _kernel_opt_eval_exact(value "${side}" ${bindings} ${shape_bindings})
        endif()
        if(value MATCHES "/")
          list(APPEND values "${value}")
          continue()
        endif()
        string(STRIP "${side}" side)
        if(value STREQUAL "overflow")
          set(value "\"${side}\" overflows int64 (the configure evaluates constraints exactly, in rationals of int64)")
        elseif(value STREQUAL "division by zero")
          set(value "\"${side}\" divides by zero")
        else()
          string(REGEX REPLACE "^inexact: " "" value "${value}")
          set(value "\"${side}\" has no exact value: ${value}")
        endif()
        set(${out_error} "${value}" PARENT_SCOPE)
        set(${out_at} "${constraint}" "${shape}" PARENT_SCOPE)
        set(${out} FALSE PARENT_SCOPE)
        return()
      endforeach()
      _kernel_opt_rational_compare(order ${values})
      if((op STREQUAL "<" AND order EQUAL -1) OR
         (op STREQUAL "<=" AND NOT order EQUAL 1) OR
         (op STREQUAL ">" AND order EQUAL 1) OR
         (op STREQUAL ">=" AND NOT order EQUAL -1) OR
         (op STREQUAL "==" AND order EQUAL 0) OR
         (op STREQUAL "!=" AND NOT order EQUAL 0))
        continue()
      endif()
      set(${out} FALSE PARENT_SCOPE)
      return()
    endforeach()
  endforeach()
  set(${out} TRUE PARENT_SCOPE)
endfunction()

# Every point of every family of <kernel>, in declaration order.
function(_kernel_opt_all_points out kernel)
  _kernel_opt_get(variants ${kernel} VARIANTS)
  set(all "")
  foreach(variant IN LISTS variants)
    _kernel_opt_get(points ${kernel} IMPL_${variant}_POINTS)
    list(APPEND all ${points})
  endforeach()
  set(${out} "${all}" PARENT_SCOPE)
endfunction()

# Copies the family variant's declaration to each of its points (run before
# signatures and modules are generated): a point is an implementation of
# its own with the family's sources, entry, options and libraries, plus its
# parameters as macros (KOPT_PARAM_<NAME>) and the header kernelopt_params.hpp.
function(_kernel_opt_family_points kernel)
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_get(variants ${kernel} VARIANTS)
  set(families "")
  foreach(variant IN LISTS variants)
    _kernel_opt_get(points ${kernel} IMPL_${variant}_POINTS)
    if(NOT points STREQUAL "")
      list(APPEND families ${variant})
    endif()
    foreach(point IN LISTS points)
      foreach(field IN ITEMS ROLE ENTRY SOURCES ENTRY_SOURCE LIBRARIES COMPILE_OPTIONS DIM_TYPE STREAM
                             CUDA_ARCHITECTURES MIN_CC EXPECT_FAILURE)
        _kernel_opt_get(value ${kernel} IMPL_${variant}_${field})
        _kernel_opt_set(${kernel} IMPL_${point}_${field} "${value}")
      endforeach()
      _kernel_opt_get(bindings ${kernel} IMPL_${point}_PARAMS)
      set(constants "")
      foreach(binding IN LISTS bindings)
        string(REGEX MATCH "^([^=]*)=(.*)$" _ "${binding}")
        string(APPEND constants "inline constexpr std::int64_t ${CMAKE_MATCH_1} = KOPT_PARAM_${CMAKE_MATCH_1};\n")
      endforeach()
      file(CONFIGURE OUTPUT "${bin}/points/${point}/kernelopt_params.hpp" CONTENT [=[
// Generated by KernelOpt: the parameters of point '@point@' of family
// '@variant@' (kernel '@kernel@'), from the macros KOPT_PARAM_<NAME> its
// sources are compiled with.
#pragma once
#include <cstdint>
namespace kopt::params {
@constants@inline constexpr const char* point = KOPT_POINT;
}  // namespace kopt::params
]=] @ONLY)
    endforeach()
  endforeach()
  _kernel_opt_set(${kernel} FAMILIES "${families}")
endfunction()

# After the point's module target <target> exists: its macros, its header,
# and out of ALL (the sweep builds it; a compile error is the point's result).
# A point's ablated build (<point>__no_<method>) has its point's.
function(_kernel_opt_point_target kernel point target)
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_get(bindings ${kernel} IMPL_${point}_PARAMS)
  _kernel_opt_get(source_point ${kernel} IMPL_${point}_POINT_OF)
  if(source_point STREQUAL "")
    set(source_point ${point})
  endif()
  set(definitions "KOPT_POINT=\"${source_point}\"")
  foreach(binding IN LISTS bindings)
    list(APPEND definitions "KOPT_PARAM_${binding}")
  endforeach()
  target_compile_definitions(${target} PRIVATE ${definitions})
  target_include_directories(${target} PRIVATE "${bin}/points/${source_point}")
  set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL TRUE)
endfunction()

# The entry call of the typed export of a point: tensors, DIMS, stream.
function(_kernel_opt_point_call_names out kernel point)
  _kernel_opt_get(names ${kernel} ARG_NAMES)
  _kernel_opt_get(dims ${kernel} DIMS)
  _kernel_opt_get(stream ${kernel} IMPL_${point}_FORM_STREAM)
  set(call ${names} ${dims})
  if(stream STREQUAL "LAST")
    list(APPEND call stream)
  endif()
  list(JOIN call ", " call)
  set(${out} "${call}" PARENT_SCOPE)
endfunction()

# The select-<k> target and the <k>.sweep.<point> tests (one per point: a
# sharded run selects them by name). There is no sweep build target: a
# sweep builds its points itself (cmake --build on this build tree), which a
# build target would nest inside the running build; `kopt sweep` runs from
# the shell or from these tests.
function(_kernel_opt_sweep_targets kernel)
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_get(families ${kernel} FAMILIES)
  if(families STREQUAL "" OR NOT TARGET KernelOpt::kopt)
    return()
  endif()
  set(KernelOpt_SELECT_MARGIN 0.03 CACHE STRING
    "select-<k>: a point within this fraction of a shape's champion is on its frontier")
  if(NOT KernelOpt_SELECT_MARGIN MATCHES "^0?\\.[0-9]+$|^0$")
    _kernel_opt_fail(kernel_opt_add_kernel ${kernel} "KernelOpt_SELECT_MARGIN must be a fraction in [0, 1)"
      KEY KernelOpt_SELECT_MARGIN "${KernelOpt_SELECT_MARGIN}"
      HINT "e.g. -DKernelOpt_SELECT_MARGIN=0.05: points within 5 % of a shape's champion are its frontier")
  endif()
  set(select_commands "")
  foreach(variant IN LISTS families)
    list(APPEND select_commands COMMAND $<TARGET_FILE:KernelOpt::kopt> select --manifest "${bin}/manifest.json"
      --kernel ${kernel} --variant ${variant} --margin ${KernelOpt_SELECT_MARGIN})
    _kernel_opt_get(points ${kernel} IMPL_${variant}_POINTS)
    _kernel_opt_get(timeout ${kernel} TIMEOUT)
    foreach(point IN LISTS points)
      add_test(NAME ${kernel}.sweep.${point}
        COMMAND $<TARGET_FILE:KernelOpt::kopt> sweep --manifest "${bin}/manifest.json" --variant ${variant}
                --point ${point} --jobs 1)
      set_tests_properties(${kernel}.sweep.${point} PROPERTIES
        LABELS "kernel-opt;sweep;${kernel}"
        SKIP_RETURN_CODE 77
        # No RESOURCE_LOCK: kopt sweep takes the build tree's lock for its
        # build alone (sweep_run.cpp), so the points of a sweep time on
        # every GPU of the resource spec at once (docs/multi-gpu.md).
        TIMEOUT ${timeout})
      _kernel_opt_timing_test(${kernel}.sweep.${point} ${kernel})
    endforeach()
  endforeach()
  # The selection changes the dispatch: the next build configures again.
  set(stamp "${bin}/selection.stamp")
  if(NOT EXISTS "${stamp}")
    file(TOUCH "${stamp}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${stamp}")
  add_custom_target(select-${kernel}
    ${select_commands}
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS KernelOpt::kopt
    USES_TERMINAL
    VERBATIM
    COMMENT "KernelOpt: per-shape champions, frontier and dispatch of the families of ${kernel}")
endfunction()

# The build command a sweep runs for a list of point targets, and the
# arguments that keep it going past a point that fails (manifest "family").
function(_kernel_opt_sweep_build_command out_command out_keep_going)
  set(command "${CMAKE_COMMAND}" --build "${CMAKE_BINARY_DIR}")
  get_property(multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi)
    list(APPEND command --config $<CONFIG>)
  endif()
  set(keep_going "")
  if(CMAKE_GENERATOR MATCHES "Ninja")
    set(keep_going -- -k 0)
  elseif(CMAKE_GENERATOR MATCHES "Makefiles")
    set(keep_going -- -k)
  endif()
  set(${out_command} "${command}" PARENT_SCOPE)
  set(${out_keep_going} "${keep_going}" PARENT_SCOPE)
endfunction()

# <records>/<k>/<variant>.selection.json, written by kopt select.
function(_kernel_opt_selection_path out kernel variant)
  _kernel_opt_get(records ${kernel} RECORDS)
  set(${out} "${records}/${kernel}/${variant}.selection.json" PARENT_SCOPE)
endfunction()

# Reads the selection of family <variant>: <out_shapes> and <out_points>
# (the champion of each declared shape, in SHAPES order), or <out_stale>
# says why it cannot serve this declaration ("" when it can).
function(_kernel_opt_read_selection kernel variant path out_points out_stale)
  file(READ "${path}" doc)
  set(stale "")
  string(JSON kind ERROR_VARIABLE error GET "${doc}" kind)
  if(NOT error STREQUAL "NOTFOUND" OR NOT kind STREQUAL "kernelopt.selection")
    set(${out_stale} "${path}: not a kernelopt.selection document" PARENT_SCOPE)
    return()
  endif()
  _kernel_opt_get(shapes ${kernel} SHAPES)
  _kernel_opt_get(points ${kernel} IMPL_${variant}_POINTS)
  # The family's sources as selected (kopt's source hash keeps each file's
  # sha256 by base name): an edited source makes the selection stale, so the
  # build never depends on points of code that was not swept.
  _kernel_opt_get(sources ${kernel} IMPL_${variant}_SOURCES)
  string(JSON n_files ERROR_VARIABLE error LENGTH "${doc}" source files)
  if(NOT error STREQUAL "NOTFOUND")
    set(${out_stale} "${path} is stale: it has no source.files (written by an older kopt)" PARENT_SCOPE)
    return()
  endif()
  list(LENGTH sources n_sources)
  if(NOT n_files EQUAL n_sources)
    set(${out_stale} "${path} is stale: it was selected with ${n_files} sources, the family has ${n_sources}" PARENT_SCOPE)
    return()
  endif()
  set(i 0)
  foreach(source IN LISTS sources)
    get_filename_component(base "${source}" NAME)
    string(JSON name GET "${doc}" source files ${i} name)
    string(JSON sha GET "${doc}" source files ${i} sha256)
    file(SHA256 "${source}" current)
    if(NOT name STREQUAL base OR NOT sha STREQUAL current)
      set(${out_stale} "${path} is stale: ${base} changed since the selection" PARENT_SCOPE)
      return()
    endif()
    math(EXPR i "${i} + 1")
  endforeach()
  string(JSON n ERROR_VARIABLE error LENGTH "${doc}" shapes)
  if(NOT error STREQUAL "NOTFOUND")
    set(${out_stale} "${path}: no shapes array" PARENT_SCOPE)
    return()
  endif()
  set(champions "")
  foreach(shape IN LISTS shapes)
    set(found "")
    if(n GREATER 0)
      math(EXPR top "${n} - 1")
      foreach(i RANGE 0 ${top})
        string(JSON text ERROR_VARIABLE e1 GET "${doc}" shapes ${i} shape)
        string(JSON champion ERROR_VARIABLE e2 GET "${doc}" shapes ${i} champion)
        if(e1 STREQUAL "NOTFOUND" AND e2 STREQUAL "NOTFOUND" AND text STREQUAL shape)
          set(found "${champion}")
        endif()
      endforeach()
    endif()
    if(found STREQUAL "")
      set(stale "it has no champion for shape ${shape}")
      break()
    endif()
    if(NOT found IN_LIST points)
      set(stale "its champion ${found} of shape ${shape} is not a point of the family as declared")
      break()
    endif()
    list(APPEND champions "${found}")
  endforeach()
  set(${out_points} "${champions}" PARENT_SCOPE)
  if(NOT stale STREQUAL "")
    set(${out_stale} "${path} is stale: ${stale}" PARENT_SCOPE)
  else()
    set(${out_stale} "" PARENT_SCOPE)
  endif()
endfunction()

# The family variant's implementation: its generated dispatch, when a
# selection exists. The library <k>_<v>_dispatch (kernelopt::<k>_<v>_dispatch,
# and kernelopt::<k>_dispatch for the last family with a selection) holds
# <k>_<v>_dispatch(), which calls the champion point of each declared shape,
# and, for any other shape, the champion of the nearest declared shape
# (docs/sweeps.md); the variant's module wraps that function, so the family
# is tested, benchmarked, recorded and gated as one variant.
function(_kernel_opt_family_dispatch kernel variant)
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_get(backend ${kernel} BACKEND)
  _kernel_opt_selection_path(path ${kernel} ${variant})
  if(NOT EXISTS "${path}")
    _kernel_opt_set(${kernel} IMPL_${variant}_SKIP_REASON
      "family ${variant} has no selection yet: run kopt sweep, then the select-${kernel} target")
    return()
  endif()
  _kernel_opt_get(family_sources ${kernel} IMPL_${variant}_SOURCES)
  # An edit of the family's sources configures again: the selection may be stale.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${path}" ${family_sources})
  _kernel_opt_read_selection(${kernel} ${variant} "${path}" champions stale)
  if(NOT stale STREQUAL "")
    message(WARNING "KernelOpt: the dispatch of ${kernel}/${variant} is not generated: ${stale}; sweep and select again")
    _kernel_opt_set(${kernel} IMPL_${variant}_SKIP_REASON "${stale}; sweep and select again")
    return()
  endif()
  _kernel_opt_get(skip ${kernel} IMPL_${variant}_SKIP_REASON)
  if(NOT skip STREQUAL "")
    return()  # not built for this build's architectures
  endif()
  foreach(point IN LISTS champions)
    if(NOT TARGET ${kernel}_kopt_${point})
      _kernel_opt_get(why ${kernel} IMPL_${point}_SKIP_REASON)
      _kernel_opt_set(${kernel} IMPL_${variant}_SKIP_REASON "its champion ${point} is not built here: ${why}")
      return()
    endif()
  endforeach()
  set(function "${kernel}_${variant}_dispatch")
  _kernel_opt_write_dispatch(${kernel} ${variant} ${function} "${champions}" "" "${path}" libraries)
  _kernel_opt_dispatch_signature(signature names_call dim_params names_dims ${kernel} ${variant})
  set(dir "${bin}/dispatch")
  # The library user code links.
  add_library(${function} STATIC "${dir}/${function}.cpp")
  target_include_directories(${function} PUBLIC "${dir}")
  target_link_libraries(${function} PUBLIC KernelOpt::headers PRIVATE ${libraries})
  if(backend STREQUAL "cuda")
    target_link_libraries(${function} PUBLIC CUDA::cudart)
  endif()
  set_target_properties(${function} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  add_library(kernelopt::${function} ALIAS ${function})
  # kernelopt::<k>_dispatch: the newest family (in declaration order) with a selection.
  if(NOT TARGET ${kernel}_dispatch)
    add_library(${kernel}_dispatch INTERFACE)
    add_library(kernelopt::${kernel}_dispatch ALIAS ${kernel}_dispatch)
    target_include_directories(${kernel}_dispatch INTERFACE "${dir}/kernel")
  endif()
  set_property(TARGET ${kernel}_dispatch PROPERTY INTERFACE_LINK_LIBRARIES ${function})
  file(CONFIGURE OUTPUT "${dir}/kernel/${kernel}_dispatch.hpp" CONTENT [=[
// Generated by KernelOpt: the dispatch of kernel '@kernel@' is that of its
// newest family with a selection, '@variant@' (docs/sweeps.md).
#pragma once
#include "@function@.hpp"

inline void @kernel@_dispatch(@signature@) { @function@(@names_call@); }
inline const char* @kernel@_dispatch_point(@dim_params@) { return @function@_point(@names_dims@); }
]=] @ONLY)
  # The variant's own module: the dispatch, through the usual wrapper.
  _kernel_opt_impl_module(${kernel} ${variant} variant "${function}" "${dir}/${function}.cpp"
    "${dir}/${function}.cpp" "${libraries}" "")
  _kernel_opt_set(${kernel} IMPL_${variant}_DISPATCH "${function}")
  _kernel_opt_set(${kernel} IMPL_${variant}_CHAMPIONS "${champions}")
endfunction()

# The names the dispatch of family <variant> is written with.
function(_kernel_opt_dispatch_signature out_signature out_call out_dim_params out_dims kernel variant)
  _kernel_opt_get(dims ${kernel} DIMS)
  _kernel_opt_parameters(signature call ${kernel} ${variant})
  _kernel_opt_point_call_names(names_call ${kernel} ${variant})
  set(dim_params "")
  foreach(dim IN LISTS dims)
    list(APPEND dim_params "std::int64_t ${dim}")
  endforeach()
  list(JOIN dim_params ", " dim_params)
  list(JOIN dims ", " names_dims)
  set(${out_signature} "${signature}" PARENT_SCOPE)
  set(${out_call} "${names_call}" PARENT_SCOPE)
  set(${out_dim_params} "${dim_params}" PARENT_SCOPE)
  set(${out_dims} "${names_dims}" PARENT_SCOPE)
endfunction()

# Writes <bin>/dispatch/<function>.hpp and .cpp: <function>() calls the
# champion of each declared shape of family <variant> (<champions>, in SHAPES
# order) and, for any other shape, the champion of the nearest declared
# shape. The points called are <point><suffix>: the points themselves (""),
# or their builds without a method ("__no_<method>", the family's ablation).
# <out_libraries>: the point targets it links.
function(_kernel_opt_write_dispatch kernel variant function champions suffix path out_libraries)
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_get(backend ${kernel} BACKEND)
  _kernel_opt_get(shapes ${kernel} SHAPES)
  _kernel_opt_get(dims ${kernel} DIMS)
  _kernel_opt_dispatch_signature(signature names_call dim_params names_dims ${kernel} ${variant})
  set(served ${champions})
  list(REMOVE_DUPLICATES served)
  set(declarations "")
  set(libraries "")
  foreach(point IN LISTS served)
    _kernel_opt_parameters(point_signature point_call ${kernel} ${point}${suffix})
    string(APPEND declarations "extern \"C\" void kopt_point_${kernel}_${point}${suffix}(${point_signature});\n")
    list(APPEND libraries ${kernel}_kopt_${point}${suffix})
  endforeach()
  list(LENGTH dims n_dims)
  set(table "")
  set(i 0)
  foreach(shape IN LISTS shapes)
    list(GET champions ${i} point)
    string(REGEX REPLACE "[A-Za-z_][A-Za-z0-9_]*=" "" values "${shape}")
    string(REPLACE "," "LL, " values "${values}")
    string(APPEND table "    {{${values}LL}, &kopt_point_${kernel}_${point}${suffix}, \"${point}\", \"${shape}\"},\n")
    math(EXPR i "${i} + 1")
  endforeach()
  set(dim_values "")
  foreach(dim IN LISTS dims)
    list(APPEND dim_values "static_cast<std::int64_t>(${dim})")
  endforeach()
  list(JOIN dim_values ", " dim_values)
  set(includes "#include <cstddef>\n#include <cstdint>\n#include <kernelopt/kernelopt.hpp>\n")
  if(backend STREQUAL "cuda")
    string(APPEND includes "#include <cuda_runtime_api.h>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n")
  endif()
  if(suffix STREQUAL "")
    set(what "the dispatch of family '${variant}' of kernel '${kernel}' (docs/sweeps.md)")
  else()
    string(REGEX REPLACE "^__no_" "" method "${suffix}")
    set(what "the dispatch of family '${variant}' of kernel '${kernel}' over its champions, each\n// built without method '${method}' (its macro 0), for kopt ablate (docs/ablation.md)")
  endif()
  set(dir "${bin}/dispatch")
  file(CONFIGURE OUTPUT "${dir}/${function}.hpp" CONTENT [=[
// Generated by KernelOpt from @path@:
// @what@.
#pragma once
@includes@
// Calls the champion point of the shape: the selection's for a declared
// shape, else the champion of the nearest declared shape (the smallest sum
// over DIMS of |log2(value / declared value)|, the first declared on a tie).
void @function@(@signature@);
// The point that serves a shape, by the same rule ("@variant@_p3").
const char* @function@_point(@dim_params@);
]=] @ONLY)
  file(CONFIGURE OUTPUT "${dir}/${function}.cpp" CONTENT [=[
// Generated by KernelOpt from @path@:
// @what@.
#include "@function@.hpp"

#include <cmath>

@declarations@
namespace {

using point_fn = void(@signature@);

struct served_shape {
  std::int64_t m_dims[@n_dims@];
  point_fn* m_point;
  const char* m_name;
  const char* m_shape;
};

const served_shape k_served[] = {
@table@};

std::size_t pick(const std::int64_t* dims) {
  std::size_t best = 0;
  double best_distance = -1;
  for (std::size_t s = 0; s < sizeof(k_served) / sizeof(k_served[0]); ++s) {
    double distance = 0;
    for (std::size_t d = 0; d < @n_dims@; ++d) {
      const double value = dims[d] > 0 ? static_cast<double>(dims[d]) : 1.0;
      distance += std::fabs(std::log2(value / static_cast<double>(k_served[s].m_dims[d])));
    }
    if (best_distance < 0 || distance < best_distance) {
      best = s;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace

void @function@(@signature@) {
  const std::int64_t dims[] = {@dim_values@};
  k_served[pick(dims)].m_point(@names_call@);
}

const char* @function@_point(@dim_params@) {
  const std::int64_t dims[] = {@dim_values@};
  return k_served[pick(dims)].m_name;
}
]=] @ONLY)
  set(${out_libraries} "${libraries}" PARENT_SCOPE)
endfunction()

# The ablation <name> (<variant>__no_<method>) of family <variant>, once its
# dispatch exists: each champion point built without the method
# (<point>__no_<method>: the point's sources, parameters and options, that
# switch 0, the others 1) and the dispatch over them, the module
# <k>_kopt_<name>. Per shape, kopt ablate then times the shape's champion
# without the method against the champion (docs/ablation.md, "Families").
# None of it is in ALL: kopt ablate builds it.
function(_kernel_opt_family_ablation kernel variant name)
  _kernel_opt_get(champions ${kernel} IMPL_${variant}_CHAMPIONS)
  _kernel_opt_get(switch ${kernel} IMPL_${name}_SWITCH)
  string(REGEX MATCH "^([^=]*)=" _ "${switch}")
  set(method "${CMAKE_MATCH_1}")
  _kernel_opt_switch_definitions(definitions ${kernel} ${variant} "${method}")
  set(served ${champions})
  list(REMOVE_DUPLICATES served)
  foreach(point IN LISTS served)
    set(ablated "${point}__no_${method}")
    _kernel_opt_copy_archs(${kernel} ${point} ${ablated})
    _kernel_opt_declared_module(${kernel} ${ablated})
    target_compile_definitions(${kernel}_kopt_${ablated} PRIVATE ${definitions})
  endforeach()
  _kernel_opt_selection_path(path ${kernel} ${variant})
  set(function "${kernel}_${name}_dispatch")
  _kernel_opt_write_dispatch(${kernel} ${variant} ${function} "${champions}" "__no_${method}" "${path}" libraries)
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_impl_module(${kernel} ${name} variant "${function}" "${bin}/dispatch/${function}.cpp"
    "${bin}/dispatch/${function}.cpp" "${libraries}" "")
  set_target_properties(${kernel}_kopt_${name} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  _kernel_opt_copy_archs(${kernel} ${variant} ${name})
  _kernel_opt_set(${kernel} IMPL_${name}_CHAMPIONS "${champions}")
endfunction()
