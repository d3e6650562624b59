# Static machine-code checks: per variant of a CUDA kernel, the CTest test
# <k>.static.<variant> (labels kernel-opt, static, <k>) runs
#   kopt static --manifest M --variant V --objects <its object files> ...
# which reads the SASS and resource usage with cuobjdump and checks the
# claimed METHODS (regexes from Methods.cmake), SASS_SIGNATURES and the
# limits MAX_REGISTERS / NO_SPILLS / NO_LOCAL_MEMORY over the variant's own
# kernels: those defined in its SOURCES, told by the line table, which is
# why the variant objects are compiled with -lineinfo. Without cuobjdump the
# test still exists and skips (exit 77) saying so; it never passes then.
# Host-backend kernels have no machine code: no static tests.
# docs/static-checks.md describes the checks.

# _kernel_opt_static_keywords(<fn> <kernel> <variant>): validates the
# variant's SASS_SIGNATURES, MAX_REGISTERS, NO_SPILLS and NO_LOCAL_MEMORY
# (the caller's arg_* variables, from kernel_opt_add_variant) and stores
# them as IMPL_<variant>_* properties.
# <out>: "" when the parentheses and brackets of <regex> balance (escapes
# and bracket expressions respected), else what is wrong. kopt static
# compiles the regex with std::regex at run time; this catches at configure
# the mistake that is by far the most common.
function(_kernel_opt_regex_balance out regex)
  string(LENGTH "${regex}" length)
  set(depth 0)
  set(in_class FALSE)
  set(i 0)
  while(i LESS length)
    string(SUBSTRING "${regex}" ${i} 1 c)
    math(EXPR i "${i} + 1")
    if(c STREQUAL "\\")
      math(EXPR i "${i} + 1")  # the escaped character
    elseif(in_class)
      if(c STREQUAL "]")
        set(in_class FALSE)
      endif()
    elseif(c STREQUAL "[")
      set(in_class TRUE)
      string(SUBSTRING "${regex}" ${i} 1 next)
      if(next STREQUAL "]" OR next STREQUAL "^")
        math(EXPR i "${i} + 1")  # []...] and [^]...]: the first ] is a member
      endif()
    elseif(c STREQUAL "(")
      math(EXPR depth "${depth} + 1")
    elseif(c STREQUAL ")")
      if(depth EQUAL 0)
        set(${out} "a ')' without its '('" PARENT_SCOPE)
        return()
      endif()
      math(EXPR depth "${depth} - 1")
    endif()
  endwhile()
  if(in_class)
    set(${out} "a '[' without its ']'" PARENT_SCOPE)
  elseif(depth GREATER 0)
    set(${out} "${depth} '(' without its ')'" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

function(_kernel_opt_static_keywords fn kernel variant)
  set(names "")
  foreach(entry IN LISTS arg_SASS_SIGNATURES)
    _kernel_opt_stray_keyword(${fn} ${kernel} SASS_SIGNATURES "${entry}")
    if(NOT entry MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
      _kernel_opt_fail(${fn} ${kernel} "SASS_SIGNATURES entry '${entry}' of variant '${variant}' is not <name>=<regex>"
        KEY SASS_SIGNATURES "${arg_SASS_SIGNATURES}"
        HINT "write SASS_SIGNATURES \"<name>=<regex>\", e.g. \"bf16_hmma=HMMA\\\\.16816\\\\.F32\\\\.BF16\"")
    endif()
    set(name "${CMAKE_MATCH_1}")
    set(regex "${CMAKE_MATCH_2}")
    if(regex STREQUAL "")
      _kernel_opt_fail(${fn} ${kernel} "SASS_SIGNATURES entry '${entry}' of variant '${variant}' has an empty regex"
        HINT "a signature must match some instruction; a method with no SASS signature needs no entry")
    endif()
    _kernel_opt_regex_balance(unbalanced "${regex}")
    if(NOT unbalanced STREQUAL "")
      _kernel_opt_fail(${fn} ${kernel} "SASS_SIGNATURES entry '${entry}' of variant '${variant}': the regex has ${unbalanced}"
        KEY SASS_SIGNATURES "${entry}"
        HINT "kopt static compiles it as an ECMAScript regex (std::regex); escape a literal parenthesis or bracket as \\( or \\[")
    endif()
    if(name IN_LIST names)
      _kernel_opt_fail(${fn} ${kernel} "SASS_SIGNATURES of variant '${variant}' names '${name}' twice"
        KEY SASS_SIGNATURES "${arg_SASS_SIGNATURES}")
    endif()
    list(APPEND names "${name}")
  endforeach()
  if(DEFINED arg_MAX_REGISTERS)
    set(valid FALSE)
    if(arg_MAX_REGISTERS MATCHES "^[0-9]+$")
      if(arg_MAX_REGISTERS GREATER_EQUAL 1 AND arg_MAX_REGISTERS LESS_EQUAL 255)
        set(valid TRUE)
      endif()
    endif()
    if(NOT valid)
      _kernel_opt_fail(${fn} ${kernel}
        "MAX_REGISTERS '${arg_MAX_REGISTERS}' of variant '${variant}' is not a register count from 1 to 255")
    endif()
  endif()
  _kernel_opt_get(backend ${kernel} BACKEND)
  if(NOT backend STREQUAL "cuda")
    foreach(keyword IN ITEMS SASS_SIGNATURES MAX_REGISTERS NO_SPILLS NO_LOCAL_MEMORY)
      if(keyword MATCHES "^NO_")
        set(given "${arg_${keyword}}")  # an option: TRUE or FALSE
      else()
        set(given FALSE)
        if(DEFINED arg_${keyword})
          set(given TRUE)
        endif()
      endif()
      if(given)
        _kernel_opt_fail(${fn} ${kernel} "variant '${variant}' sets ${keyword}, but kernel '${kernel}' has BACKEND ${backend}: there is no machine code to check"
          HINT "SASS checks apply to BACKEND cuda kernels; remove ${keyword}")
      endif()
    endforeach()
  endif()
  _kernel_opt_set(${kernel} IMPL_${variant}_SASS_SIGNATURES "${arg_SASS_SIGNATURES}")
  _kernel_opt_set(${kernel} IMPL_${variant}_MAX_REGISTERS "${arg_MAX_REGISTERS}")
  _kernel_opt_set(${kernel} IMPL_${variant}_NO_SPILLS "${arg_NO_SPILLS}")
  _kernel_opt_set(${kernel} IMPL_${variant}_NO_LOCAL_MEMORY "${arg_NO_LOCAL_MEMORY}")
endfunction()

# cuobjdump, cached in KernelOpt_CUOBJDUMP, found in the order
# tools/cuobjdump-path.sh uses: PATH, the CUDA toolkit, then the PyPI package
# (nvidia-cuda-cuobjdump installs <site-packages>/nvidia/cu*/bin/cuobjdump).
function(_kernel_opt_find_cuobjdump out)
  find_program(KernelOpt_CUOBJDUMP NAMES cuobjdump
    DOC "cuobjdump for the static SASS checks (not found: the <k>.static.* tests skip)")
  get_property(searched GLOBAL PROPERTY _KERNEL_OPT_CUOBJDUMP_SEARCHED)
  if(NOT KernelOpt_CUOBJDUMP AND NOT searched)
    set_property(GLOBAL PROPERTY _KERNEL_OPT_CUOBJDUMP_SEARCHED TRUE)
    set(hints "")
    if(CUDAToolkit_BIN_DIR)
      list(APPEND hints "${CUDAToolkit_BIN_DIR}")
    endif()
    if(CMAKE_CUDA_COMPILER_TOOLKIT_ROOT)  # the compiler's toolkit, also where CUDAToolkit_* are not visible
      list(APPEND hints "${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}/bin")
    endif()
    find_program(KernelOpt_PYTHON3 NAMES python3 DOC "Python, to find the PyPI cuobjdump package")
    if(KernelOpt_PYTHON3)
      execute_process(
        COMMAND "${KernelOpt_PYTHON3}" -c
                "import site; print(';'.join(site.getsitepackages() + [site.getusersitepackages()]))"
        OUTPUT_VARIABLE sites OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
      if(status EQUAL 0)
        foreach(site IN LISTS sites)
          file(GLOB bins LIST_DIRECTORIES true "${site}/nvidia/cu*/bin")
          list(APPEND hints ${bins})
        endforeach()
      endif()
    endif()
    find_program(KernelOpt_CUOBJDUMP NAMES cuobjdump HINTS ${hints})
    if(NOT KernelOpt_CUOBJDUMP)
      message(STATUS "KernelOpt: cuobjdump not found: the <k>.static.* tests will skip "
                     "(install nvidia-cuda-cuobjdump or the CUDA toolkit's cuobjdump)")
    endif()
  endif()
  if(KernelOpt_CUOBJDUMP)
    set(${out} "${KernelOpt_CUOBJDUMP}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# _kernel_opt_static_tests(<kernel>): the <k>.static.<variant> tests.
# Called by _kernel_opt_finalize once every variant is known.
function(_kernel_opt_static_tests kernel)
  _kernel_opt_get(backend ${kernel} BACKEND)
  if(NOT backend STREQUAL "cuda")
    return()
  endif()
  _kernel_opt_get(variants ${kernel} VARIANTS)
  # The line table tells which file defines each kernel (kopt static: a
  # variant's own kernels are those defined in its SOURCES). -lineinfo adds
  # the table and leaves the machine code as it is; Nsight Compute's source
  # view reads it too. nvcc only (clang: -gline-tables-only).
  # The ablated builds too: kopt ablate looks for each method's signature in them.
  _kernel_opt_get(ablations ${kernel} ABLATIONS_BUILT)
  foreach(variant IN LISTS variants ablations)
    _kernel_opt_code_targets(targets ${kernel} ${variant})
    foreach(target IN LISTS targets)
      if(TARGET ${target})
        target_compile_options(${target} PRIVATE $<$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>:-lineinfo>)
      endif()
    endforeach()
  endforeach()
  if(NOT TARGET KernelOpt::kopt)
    return()
  endif()
  _kernel_opt_get(bin ${kernel} BINARY_DIR)
  _kernel_opt_get(timeout ${kernel} TIMEOUT)
  _kernel_opt_find_cuobjdump(cuobjdump)
  set(tool_args "")
  if(cuobjdump)
    set(tool_args --cuobjdump "${cuobjdump}")
  endif()
  foreach(variant IN LISTS variants)
    _kernel_opt_get(skip ${kernel} IMPL_${variant}_SKIP_REASON)
    if(NOT skip STREQUAL "")
      _kernel_opt_skipped_test(${kernel}.static.${variant} "not built: ${skip}")
      set_tests_properties(${kernel}.static.${variant} PROPERTIES LABELS "kernel-opt;static;${kernel}")
      continue()
    endif()
    _kernel_opt_get(methods ${kernel} IMPL_${variant}_METHODS)
    _kernel_opt_get(user ${kernel} IMPL_${variant}_SASS_SIGNATURES)
    _kernel_opt_get(max_registers ${kernel} IMPL_${variant}_MAX_REGISTERS)
    _kernel_opt_get(no_spills ${kernel} IMPL_${variant}_NO_SPILLS)
    _kernel_opt_get(no_local ${kernel} IMPL_${variant}_NO_LOCAL_MEMORY)
    set(check_args "")
    # Each claimed METHOD with its regex: the variant's own SASS_SIGNATURES
    # entry of that name, else the table in Methods.cmake ("" = none).
    foreach(method IN LISTS methods)
      _kernel_opt_method_signature(regex "${method}" ${user})
      list(APPEND check_args --method-signature "${method}=${regex}")
    endforeach()
    foreach(entry IN LISTS user)
      string(REGEX MATCH "^[^=]*" name "${entry}")
      if(NOT name IN_LIST methods)
        list(APPEND check_args --sass-signature "${entry}")
      endif()
    endforeach()
    if(NOT max_registers STREQUAL "")
      list(APPEND check_args --max-registers ${max_registers})
    endif()
    if(no_spills)
      list(APPEND check_args --no-spills)
    endif()
    if(no_local)
      list(APPEND check_args --no-local-memory)
    endif()
    # The same check, for `kopt optimize` (manifest: variants[].static_args).
    _kernel_opt_set(${kernel} IMPL_${variant}_STATIC_ARGS "${tool_args};${check_args}")
    _kernel_opt_code_targets(targets ${kernel} ${variant})
    # One argument, expanded once the expressions are (COMMAND_EXPAND_LISTS).
    set(objects "")
    foreach(target IN LISTS targets)
      if(NOT objects STREQUAL "")
        string(APPEND objects ";")
      endif()
      string(APPEND objects "--objects;$<JOIN:$<TARGET_OBJECTS:${target}>,;--objects;>")
    endforeach()
    add_test(NAME ${kernel}.static.${variant}
      COMMAND $<TARGET_FILE:KernelOpt::kopt> static
              --manifest "${bin}/manifest.json"
              --variant ${variant}
              "${objects}"
              --out "${bin}/results/static.${variant}.json"
              ${tool_args}
              ${check_args}
      COMMAND_EXPAND_LISTS)
    set_tests_properties(${kernel}.static.${variant} PROPERTIES
      LABELS "kernel-opt;static;${kernel}"
      SKIP_RETURN_CODE 77
      TIMEOUT ${timeout})
  endforeach()
endfunction()

# The targets whose objects hold the machine code of implementation <name>:
# its module; for a family, its champion points (its module is the dispatch),
# and for a family's ablation <v>__no_<m>, those champions built without <m>.
# Without a selection a family has no dispatch, and its static test skips.
function(_kernel_opt_code_targets out kernel name)
  _kernel_opt_get(champions ${kernel} IMPL_${name}_CHAMPIONS)
  if(champions STREQUAL "")
    set(${out} ${kernel}_kopt_${name} PARENT_SCOPE)
    return()
  endif()
  set(suffix "")
  _kernel_opt_get(switch ${kernel} IMPL_${name}_SWITCH)
  if(NOT switch STREQUAL "")
    string(REGEX MATCH "^[^=]*" method "${switch}")
    set(suffix "__no_${method}")
  endif()
  list(REMOVE_DUPLICATES champions)
  set(targets "")
  foreach(point IN LISTS champions)
    list(APPEND targets ${kernel}_kopt_${point}${suffix})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()
