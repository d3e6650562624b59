# Minimal JSON writing for the manifest: string escaping and lists.

# _kernel_opt_json_string(<out> <value>): "value" with JSON escapes.
function(_kernel_opt_json_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  string(REPLACE "\n" "\\n" value "${value}")
  string(REPLACE "\r" "\\r" value "${value}")
  string(REPLACE "\t" "\\t" value "${value}")
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
