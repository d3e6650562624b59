# The one way KernelOpt's CMake functions report a mistake: a headline that
# names the function and the kernel, indented "Key: 'value'" lines, then an
# optional hint; always FATAL_ERROR, so a bad declaration stops the configure.
#
#   _kernel_opt_fail(<function> <kernel> <headline>
#                    [KEY <name> <value>]... [HINT <text>])
function(_kernel_opt_fail function kernel headline)
  set(text "${function}(${kernel}): ${headline}")
  set(hint "")
  set(i 3)
  while(i LESS ARGC)
    set(word "${ARGV${i}}")
    if(word STREQUAL "KEY")
      math(EXPR k "${i} + 1")
      math(EXPR v "${i} + 2")
      set(text "${text}\n  ${ARGV${k}}: '${ARGV${v}}'")
      math(EXPR i "${i} + 3")
    elseif(word STREQUAL "HINT")
      math(EXPR k "${i} + 1")
      set(hint "${ARGV${k}}")
      math(EXPR i "${i} + 2")
    else()
      message(FATAL_ERROR "_kernel_opt_fail: bad argument '${word}'")
    endif()
  endwhile()
  if(hint)
    set(text "${text}\n  Hint: ${hint}")
  endif()
  message(FATAL_ERROR "${text}")
endfunction()

# Rejects what cmake_parse_arguments could not place and keywords given
# without a value. `prefix` is the cmake_parse_arguments prefix.
macro(_kernel_opt_check_parsed function kernel prefix)
  if(DEFINED ${prefix}_UNPARSED_ARGUMENTS)
    list(GET ${prefix}_UNPARSED_ARGUMENTS 0 _kopt_first)
    _kernel_opt_fail(${function} "${kernel}" "unknown argument '${_kopt_first}'"
      KEY "Unparsed" "${${prefix}_UNPARSED_ARGUMENTS}"
      HINT "check the spelling of the keyword; the keywords are listed at the top of cmake/KernelOpt.cmake")
  endif()
  if(DEFINED ${prefix}_KEYWORDS_MISSING_VALUES)
    list(GET ${prefix}_KEYWORDS_MISSING_VALUES 0 _kopt_first)
    _kernel_opt_fail(${function} "${kernel}" "keyword ${_kopt_first} needs a value")
  endif()
endmacro()

macro(_kernel_opt_require function kernel prefix)
  foreach(_kopt_keyword IN ITEMS ${ARGN})
    if(NOT DEFINED ${prefix}_${_kopt_keyword})
      _kernel_opt_fail(${function} "${kernel}" "missing required keyword ${_kopt_keyword}")
    endif()
  endforeach()
endmacro()

function(_kernel_opt_check_identifier function kernel what value)
  if(NOT value MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    _kernel_opt_fail(${function} "${kernel}" "${what} '${value}' is not a valid identifier"
      HINT "use letters, digits and '_', not starting with a digit")
  endif()
endfunction()
