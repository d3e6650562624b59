# Minimal JSON writing for the manifest: string escaping and lists.

# The control characters JSON forbids raw in a string (U+0001..U+001F; CMake
# strings hold no U+0000) and DEL: their codes, and a regex class of them, in
# global properties (a function does not see the variables of the directory
# that included this file).
set(_kopt_codes "")
set(_kopt_class "")
foreach(_kopt_code RANGE 1 31)
  list(APPEND _kopt_codes ${_kopt_code})
endforeach()
list(APPEND _kopt_codes 127)
foreach(_kopt_code IN LISTS _kopt_codes)
  string(ASCII ${_kopt_code} _kopt_char)
  string(APPEND _kopt_class "${_kopt_char}")
endforeach()
set_property(GLOBAL PROPERTY _KERNEL_OPT_CONTROL_CODES "${_kopt_codes}")
set_property(GLOBAL PROPERTY _KERNEL_OPT_CONTROL_CLASS "[${_kopt_class}]")
unset(_kopt_codes)
unset(_kopt_class)
unset(_kopt_char)

# _kernel_opt_json_string(<out> <value>): "value" with JSON escapes: the
# quote, the backslash and every control character (\n, \r, \t, the rest as
# \u00XX), so that any text a user declares keeps the manifest valid JSON.
function(_kernel_opt_json_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  string(REPLACE "\n" "\\n" value "${value}")
  string(REPLACE "\r" "\\r" value "${value}")
  string(REPLACE "\t" "\\t" value "${value}")
  get_property(controls GLOBAL PROPERTY _KERNEL_OPT_CONTROL_CLASS)
  if(value MATCHES "${controls}")
    get_property(codes GLOBAL PROPERTY _KERNEL_OPT_CONTROL_CODES)
    foreach(code IN LISTS codes)
      string(ASCII ${code} char)
      math(EXPR hex "${code}" OUTPUT_FORMAT HEXADECIMAL)  # 0x1f
      string(SUBSTRING "${hex}" 2 -1 hex)
      string(TOLOWER "${hex}" hex)
      string(LENGTH "${hex}" n)
      if(n EQUAL 1)
        set(hex "0${hex}")
      endif()
      string(REPLACE "${char}" "\\u00${hex}" value "${value}")
    endforeach()
  endif()
  # A ';' would split the JSON text when it is handled as a CMake list.
  string(REPLACE ";" "\\u003b" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

# _kernel_opt_json_string_or_null(<out> <value>): null when empty.
function(_kernel_opt_json_string_or_null out value)
  if(value STREQUAL "")
    set(${out} "null" PARENT_SCOPE)
  else()
    _kernel_opt_json_string(s "${value}")
    set(${out} "${s}" PARENT_SCOPE)
  endif()
endfunction()

# _kernel_opt_json_list(<out> <items>...): ["a", "b"].
function(_kernel_opt_json_list out)
  set(parts "")
  foreach(item IN LISTS ARGN)
    _kernel_opt_json_string(s "${item}")
    list(APPEND parts "${s}")
  endforeach()
  list(JOIN parts ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()
