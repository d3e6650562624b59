# What cmake_parse_arguments lets through silently: it keeps the last value
# of a one-value keyword given twice and joins the values of a list keyword
# given twice; it reads a one-value keyword given "" as not given at all, and
# keeps "" entries of a list keyword (SHAPES "" is a list of no shapes). The
# public functions and the TOLERANCE and TIMING sub-parsers check their raw
# words here first: each keyword at most once, every value non-empty.

# _kernel_opt_check_keywords(<fn> <kernel> <first> <argc> <options> <one-value> <multi-value>)
# A macro, called from a public function with its ${ARGC}: it reads that
# function's ARGV<first> .. ARGV<argc - 1> (in a macro, only the literal
# ${ARGV0}, ${ARGV1}, ... are replaced by the macro's own arguments; the
# computed ${ARGV${i}} is the caller's variable, as CMake's documentation of
# macro() says), copies them and checks them with _kernel_opt_check_words.
macro(_kernel_opt_check_keywords _kopt_fn _kopt_kernel _kopt_first _kopt_argc _kopt_options _kopt_one _kopt_multi)
  set(_kopt_i ${_kopt_first})
  set(_kopt_n 0)
  while(_kopt_i LESS ${_kopt_argc})
    set(_kopt_word${_kopt_n} "${ARGV${_kopt_i}}")
    math(EXPR _kopt_i "${_kopt_i} + 1")
    math(EXPR _kopt_n "${_kopt_n} + 1")
  endwhile()
  _kernel_opt_check_words(${_kopt_fn} "${_kopt_kernel}" "" _kopt_word ${_kopt_n}
    "${_kopt_options}" "${_kopt_one}" "${_kopt_multi}")
endmacro()

# _kernel_opt_check_sub_keywords(<fn> <kernel> <keyword> <words> <one-value>)
# The same rules for the sub-keywords of <keyword> (TOLERANCE RTOL ...),
# given its values <words> (a list: its entries are never empty, the
# top-level check refused those).
function(_kernel_opt_check_sub_keywords fn kernel keyword words one)
  set(n 0)
  foreach(word IN LISTS words)
    set(word${n} "${word}")
    math(EXPR n "${n} + 1")
  endforeach()
  _kernel_opt_check_words(${fn} "${kernel}" "${keyword}" word ${n} "" "${one}" "")
endfunction()

# _kernel_opt_check_words(<fn> <kernel> <context> <prefix> <count> <options> <one-value> <multi-value>)
# The words ${<prefix>0} .. ${<prefix><count - 1>} of the caller, read as
# cmake_parse_arguments reads them (a word equal to a keyword is that
# keyword, wherever it is). <context> is "" for a function's arguments or the
# keyword whose values these are.
function(_kernel_opt_check_words fn kernel context prefix count options one multi)
  set(keywords ${options} ${one} ${multi})
  set(where "")
  if(NOT context STREQUAL "")
    set(where "${context} ")
  endif()
  # Group the words by keyword occurrence: kw<j> the keyword, shown<j> its
  # values for messages, values<j> how many, empty<j> how many of them are ""
  # or only empty list elements, holed<j> how many (of a list keyword's) have
  # an empty element.
  set(groups 0)
  set(keyword "")     # the keyword whose values follow, "" before the first
  set(takes 0)        # how many more values it takes: 0, 1 or -1 (any number)
  set(previous "")
  set(i 0)
  while(i LESS count)
    set(word "${${prefix}${i}}")
    if(word IN_LIST keywords)
      set(j ${groups})
      math(EXPR groups "${groups} + 1")
      set(keyword "${word}")
      set(kw${j} "${word}")
      set(shown${j} "")
      set(values${j} 0)
      set(empty${j} 0)
      set(holed${j} 0)
      if(word IN_LIST options)
        set(takes 0)
      elseif(word IN_LIST one)
        set(takes 1)
      else()
        set(takes -1)
      endif()
    elseif(takes EQUAL 0)
      # Not a value of a keyword: cmake_parse_arguments leaves it unparsed
      # and the caller reports it by name, but "" would vanish there.
      if(word STREQUAL "")
        set(after "${previous}")
        if(i EQUAL 0)
          set(after "${kernel}")
        endif()
        _kernel_opt_fail(${fn} "${kernel}" "empty argument '' where ${where}a keyword is expected"
          KEY After "${after}"
          HINT "an empty quoted variable, or \"\" given to a keyword that takes no value?")
      endif()
    else()
      if(takes EQUAL 1)
        set(takes 0)
      endif()
      math(EXPR values${j} "${values${j}} + 1")
      if(word MATCHES "^;*$")
        math(EXPR empty${j} "${empty${j}} + 1")
      elseif(keyword IN_LIST multi AND word MATCHES "(^|;)(;|$)")
        math(EXPR holed${j} "${holed${j}} + 1")
      endif()
      # A list keyword's values quoted, so that "" shows.
      if(takes EQUAL -1)
        string(APPEND shown${j} " \"${word}\"")
        string(STRIP "${shown${j}}" shown${j})
      else()
        set(shown${j} "${word}")
      endif()
    endif()
    set(previous "${word}")
    math(EXPR i "${i} + 1")
  endwhile()

  set(seen "")
  set(j 0)
  while(j LESS groups)
    set(keyword "${kw${j}}")
    if(keyword IN_LIST seen)
      # The first occurrence of <keyword>.
      set(k 0)
      while(NOT kw${k} STREQUAL keyword)
        math(EXPR k "${k} + 1")
      endwhile()
      _kernel_opt_fail(${fn} "${kernel}" "${where}keyword ${keyword} is given twice"
        KEY "${where}${keyword}" "${shown${k}}" KEY "${where}${keyword}" "${shown${j}}"
        HINT "give each keyword once: CMake would keep only the last value (or join the lists) without a word")
    endif()
    list(APPEND seen "${keyword}")
    if(NOT keyword IN_LIST options AND values${j} GREATER 0)
      if(empty${j} EQUAL values${j})
        _kernel_opt_fail(${fn} "${kernel}" "${where}keyword ${keyword} needs a value"
          KEY "${where}${keyword}" "${shown${j}}"
          HINT "it is given only \"\" (an empty quoted variable?): give a value, or leave the keyword out")
      elseif(empty${j} GREATER 0 OR holed${j} GREATER 0)
        _kernel_opt_fail(${fn} "${kernel}" "${where}${keyword} has an empty entry"
          KEY "${where}${keyword}" "${shown${j}}"
          HINT "every entry of ${keyword} must be non-empty (an empty quoted variable, or ';;' in a list?)")
      endif()
    endif()
    math(EXPR j "${j} + 1")
  endwhile()
endfunction()
