# JSON documents built with string(JSON ... SET): the writer escapes what
# JSON requires (quotes, backslashes, every control character), so any text a
# user declares keeps the manifest valid. These helpers only turn CMake values
# into the JSON values string(JSON) takes.
#
#   _kernel_opt_json_set(<doc-var> <path> <json>)       a JSON value at <path>
#   _kernel_opt_json_set_string(<doc-var> <path> <text>)
#   _kernel_opt_json_set_string_or_null(<doc-var> <path> <text>)  null when empty
#   _kernel_opt_json_set_strings(<doc-var> <path> <item>...)      an array
#
# <path> is a ;-list of member names and array indices (an index one past
# the end appends). Values may hold ';'.

# _kernel_opt_json_quote(<out> <text>): <text> as a JSON string literal that
# string(JSON) parses back to <text>: only the quote and the backslash are
# escaped; the reader takes raw control characters and the writer escapes
# them.
function(_kernel_opt_json_quote out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

function(_kernel_opt_json_set _kopt_doc _kopt_path _kopt_value)
  string(JSON _kopt_result SET "${${_kopt_doc}}" ${_kopt_path} "${_kopt_value}")
  set(${_kopt_doc} "${_kopt_result}" PARENT_SCOPE)
endfunction()

function(_kernel_opt_json_set_string _kopt_doc _kopt_path _kopt_text)
  _kernel_opt_json_quote(_kopt_value "${_kopt_text}")
  string(JSON _kopt_result SET "${${_kopt_doc}}" ${_kopt_path} "${_kopt_value}")
  set(${_kopt_doc} "${_kopt_result}" PARENT_SCOPE)
endfunction()

function(_kernel_opt_json_set_string_or_null _kopt_doc _kopt_path _kopt_text)
  if(_kopt_text STREQUAL "")
    set(_kopt_value null)
  else()
    _kernel_opt_json_quote(_kopt_value "${_kopt_text}")
  endif()
  string(JSON _kopt_result SET "${${_kopt_doc}}" ${_kopt_path} "${_kopt_value}")
  set(${_kopt_doc} "${_kopt_result}" PARENT_SCOPE)
endfunction()

function(_kernel_opt_json_set_strings _kopt_doc _kopt_path)
  set(_kopt_array "[]")
  set(_kopt_index 0)
  foreach(_kopt_item IN LISTS ARGN)
    _kernel_opt_json_quote(_kopt_value "${_kopt_item}")
    string(JSON _kopt_array SET "${_kopt_array}" ${_kopt_index} "${_kopt_value}")
    math(EXPR _kopt_index "${_kopt_index} + 1")
  endforeach()
  string(JSON _kopt_result SET "${${_kopt_doc}}" ${_kopt_path} "${_kopt_array}")
  set(${_kopt_doc} "${_kopt_result}" PARENT_SCOPE)
endfunction()
