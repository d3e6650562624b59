# The numbers a declaration gives (TOLERANCE, TIMING, TIMEOUT, SEEDS and the
# cache variables behind their defaults) are written into generated C++
# (Spec.cmake) and into the manifest's JSON (Manifest.cmake), and kopt
# compares the two. Each is read once, at parse time, into one canonical
# form that both languages read as the same value: "08" is no C++ literal,
# "010" is 8 in C++ and 10 in JSON, "123456789012345678901" is too large
# for a C++ integer literal and "2." is no JSON number.

# _kernel_opt_decimal(<out> <text>): the non-negative decimal <text> (1e-3,
# .5, 2., 08, 1.50E+03) in canonical form: the integer part without leading
# zeros, a fraction of at least one digit and without trailing zeros, the
# exponent as e[-]<digits> without leading zeros, or none ("8.0", "0.5",
# "2.0", "1.5e3", "1.0e-3"). A C++ double literal and a JSON number, rounded
# to the same double by both. <out> is "" when <text> is no such decimal,
# "overflow" when it is 1e308 or more (a double would be infinite near
# there), "underflow" when it is not 0 but below 1e-300 (a double would
# round it to 0 or lose its precision).
function(_kernel_opt_decimal out text)
  # No digit before the exponent: "", ".", "e5".
  if(text MATCHES "^\\.?([eE]|$)")
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  if(NOT text MATCHES "^([0-9]*)(\\.([0-9]*))?([eE]([-+]?)([0-9]+))?$")
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(integer "${CMAKE_MATCH_1}")
  set(fraction "${CMAKE_MATCH_3}")
  set(sign "${CMAKE_MATCH_5}")
  set(exponent "${CMAKE_MATCH_6}")
  string(REGEX REPLACE "^0+" "" integer "${integer}")
  string(REGEX REPLACE "0+$" "" fraction "${fraction}")
  string(REGEX REPLACE "^0+" "" exponent "${exponent}")
  if(integer STREQUAL "" AND fraction STREQUAL "")
    set(${out} "0.0" PARENT_SCOPE)
    return()
  endif()
  # The first significant digit is at 10^position (before the exponent).
  string(LENGTH "${integer}" integer_digits)
  if(integer_digits GREATER 0)
    math(EXPR position "${integer_digits} - 1")
  else()
    string(REGEX REPLACE "^0+" "" significant "${fraction}")
    string(LENGTH "${fraction}" fraction_digits)
    string(LENGTH "${significant}" significant_digits)
    math(EXPR position "${significant_digits} - ${fraction_digits} - 1")
  endif()
  string(LENGTH "${exponent}" exponent_digits)
  if(exponent_digits GREATER 5)
    set(exponent 99999)  # beyond every bound below either way
  elseif(exponent STREQUAL "")
    set(exponent 0)
  endif()
  if(sign STREQUAL "-")
    math(EXPR magnitude "${position} - ${exponent}")
  else()
    math(EXPR magnitude "${position} + ${exponent}")
  endif()
  # The value is in [10^magnitude, 10^(magnitude + 1)).
  if(magnitude GREATER_EQUAL 308)
    set(${out} overflow PARENT_SCOPE)
    return()
  elseif(magnitude LESS -300)
    set(${out} underflow PARENT_SCOPE)
    return()
  endif()
  if(integer STREQUAL "")
    set(integer 0)
  endif()
  if(fraction STREQUAL "")
    set(fraction 0)
  endif()
  set(result "${integer}.${fraction}")
  if(NOT exponent EQUAL 0)
    if(sign STREQUAL "-")
      string(APPEND result "e-${exponent}")
    else()
      string(APPEND result "e${exponent}")
    endif()
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# _kernel_opt_integer(<out> <text> <max>): the decimal integer <text> (digits
# only; leading zeros allowed: "010" is ten) without leading zeros, "" when
# <text> is no such integer, "overflow" when it is above <max> (itself
# without leading zeros, e.g. 9223372036854775807).
function(_kernel_opt_integer out text max)
  if(NOT text MATCHES "^[0-9]+$")
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  string(REGEX REPLACE "^0+" "" digits "${text}")
  if(digits STREQUAL "")
    set(digits 0)
  endif()
  string(LENGTH "${digits}" n)
  string(LENGTH "${max}" n_max)
  if(n GREATER n_max OR (n EQUAL n_max AND digits STRGREATER max))
    set(digits overflow)
  endif()
  set(${out} "${digits}" PARENT_SCOPE)
endfunction()

# _kernel_opt_parse_seeds(<fn> <kernel> <seeds> <out>): SEEDS, each a
# distinct integer in [0, INT64_MAX]; <out> gets them without leading zeros.
function(_kernel_opt_parse_seeds fn kernel seeds out)
  set(result "")
  foreach(seed IN LISTS seeds)
    _kernel_opt_stray_keyword(${fn} ${kernel} SEEDS "${seed}")
    _kernel_opt_integer(value "${seed}" 9223372036854775807)
    if(value STREQUAL "")
      _kernel_opt_fail(${fn} ${kernel} "SEEDS entry '${seed}' is not a non-negative integer"
        KEY SEEDS "${seeds}")
    elseif(value STREQUAL "overflow")
      _kernel_opt_fail(${fn} ${kernel} "SEEDS entry '${seed}' is beyond int64"
        KEY SEEDS "${seeds}"
        HINT "a seed is at most 9223372036854775807")
    endif()
    if(value IN_LIST result)
      _kernel_opt_fail(${fn} ${kernel} "SEEDS lists seed ${value} twice"
        KEY SEEDS "${seeds}"
        HINT "each seed is a trial with its own inputs: a repeated seed repeats a trial (seeds are decimal: 01 and 1 are the same seed)")
    endif()
    list(APPEND result "${value}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# _kernel_opt_parse_timeout(<fn> <kernel> <given> <text> <out>): TIMEOUT
# (<given> true) or KernelOpt_TEST_TIMEOUT, seconds from 2 to 1000000: kopt
# refuses 0 and gives the benchmark 95 % (kopt perf: 90 % of that) of it in
# whole seconds, which the benchmark refuses below 1 s and above 1e7 s.
function(_kernel_opt_parse_timeout fn kernel given text out)
  set(what KernelOpt_TEST_TIMEOUT)
  set(hint "the default TIMEOUT of the generated tests, e.g. -DKernelOpt_TEST_TIMEOUT=600")
  if(given)
    set(what TIMEOUT)
    set(hint "the CTest timeout of each generated test process, in seconds")
  endif()
  _kernel_opt_decimal(seconds "${text}")
  if(seconds STREQUAL "")
    _kernel_opt_fail(${fn} ${kernel} "${what} '${text}' is not a number of seconds"
      KEY ${what} "${text}" HINT "${hint}")
  endif()
  if(seconds MATCHES "flow$" OR seconds LESS 2 OR seconds GREATER 1000000)
    _kernel_opt_fail(${fn} ${kernel} "${what} '${text}' is not from 2 to 1000000 seconds"
      KEY ${what} "${text}"
      HINT "${hint}; kopt refuses 0 (there is no 'no limit': give a large value) and gives the benchmark 95 % of it, in whole seconds of which there must be one")
  endif()
  set(${out} "${seconds}" PARENT_SCOPE)
endfunction()

# TOLERANCE RTOL <x> ATOL <y> [MAX_REL_L2 <z>] -> "rtol;atol;max_rel_l2",
# canonical decimals (max_rel_l2 empty when not given).
function(_kernel_opt_parse_tolerance fn kernel words out)
  if(words STREQUAL "")
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  _kernel_opt_check_sub_keywords(${fn} ${kernel} TOLERANCE "${words}" "RTOL;ATOL;MAX_REL_L2")
  cmake_parse_arguments(tol "" "RTOL;ATOL;MAX_REL_L2" "" ${words})
  if(DEFINED tol_UNPARSED_ARGUMENTS OR DEFINED tol_KEYWORDS_MISSING_VALUES
     OR NOT DEFINED tol_RTOL OR NOT DEFINED tol_ATOL)
    _kernel_opt_fail(${fn} ${kernel} "malformed TOLERANCE"
      KEY TOLERANCE "${words}"
      HINT "write TOLERANCE RTOL <number> ATOL <number> [MAX_REL_L2 <number>]")
  endif()
  foreach(key IN ITEMS RTOL ATOL MAX_REL_L2)
    set(value_${key} "")
    if(NOT DEFINED tol_${key})
      continue()
    endif()
    set(text "${tol_${key}}")
    _kernel_opt_decimal(value_${key} "${text}")
    if(value_${key} STREQUAL "")
      _kernel_opt_fail(${fn} ${kernel} "malformed TOLERANCE: ${key} '${text}' is not a non-negative number"
        KEY TOLERANCE "${words}")
    elseif(value_${key} STREQUAL "overflow")
      _kernel_opt_fail(${fn} ${kernel} "TOLERANCE ${key} '${text}' is not a finite number"
        KEY TOLERANCE "${words}"
        HINT "${key} must be a finite, non-negative number below 1e308")
    elseif(value_${key} STREQUAL "underflow")
      _kernel_opt_fail(${fn} ${kernel} "TOLERANCE ${key} '${text}' is below 1e-300"
        KEY TOLERANCE "${words}"
        HINT "a double would round it to 0 or lose its precision: write 0")
    endif()
  endforeach()
  set(${out} "${value_RTOL};${value_ATOL};${value_MAX_REL_L2}" PARENT_SCOPE)
endfunction()

# TIMING [MIN_SAMPLES n] [MIN_TIME s] [MAX_NOISE f] [MAX_TIME s]
#   -> "min_samples;min_time;max_noise;timeout", canonical, each not given
# from its cache variable (named in any refusal). The ranges are those the
# benchmark's sampler and kopt's reader (formats/timing_settings.cpp) take:
# MIN_SAMPLES 1 to the sampler's cap of 1000000 samples, MIN_TIME >= 0 and
# below MAX_TIME (sample time never exceeds the wall time sampling runs),
# MAX_NOISE a fraction in (0, 1), MAX_TIME > 0.
function(_kernel_opt_parse_timing fn kernel words out)
  _kernel_opt_check_sub_keywords(${fn} ${kernel} TIMING "${words}" "MIN_SAMPLES;MIN_TIME;MAX_NOISE;MAX_TIME")
  cmake_parse_arguments(timing "" "MIN_SAMPLES;MIN_TIME;MAX_NOISE;MAX_TIME" "" ${words})
  if(DEFINED timing_UNPARSED_ARGUMENTS OR DEFINED timing_KEYWORDS_MISSING_VALUES)
    _kernel_opt_fail(${fn} ${kernel} "malformed TIMING"
      KEY TIMING "${words}"
      HINT "write TIMING [MIN_SAMPLES <n>] [MIN_TIME <s>] [MAX_NOISE <fraction>] [MAX_TIME <s>]")
  endif()
  set(cache_MIN_SAMPLES KernelOpt_MIN_SAMPLES)
  set(cache_MIN_TIME KernelOpt_MIN_TIME)
  set(cache_MAX_NOISE KernelOpt_MAX_NOISE)
  set(cache_MAX_TIME KernelOpt_BENCH_TIMEOUT)
  set(result "")
  foreach(key IN ITEMS MIN_SAMPLES MIN_TIME MAX_NOISE MAX_TIME)
    # <what>: how a refusal names the value; <key_name> <key_value>: its KEY line.
    if(DEFINED timing_${key})
      set(text "${timing_${key}}")
      set(what "TIMING ${key}")
      set(malformed "malformed TIMING: ${key}")
      set(key_name TIMING)
      set(key_value "${words}")
      set(hint "")
    else()
      set(variable ${cache_${key}})
      set(text "${${variable}}")
      set(what "${variable}")
      set(malformed "${variable}")
      set(key_name ${variable})
      set(key_value "${text}")
      set(hint "the cache variable is the default of TIMING ${key}; ")
    endif()
    set(text_${key} "${text}")
    set(what_${key} "${what}")
    if(key STREQUAL "MIN_SAMPLES")
      _kernel_opt_integer(value "${text}" 1000000)
      if(value STREQUAL "")
        _kernel_opt_fail(${fn} ${kernel} "${malformed} '${text}' is not a positive integer"
          KEY ${key_name} "${key_value}" HINT "${hint}at least this many samples per measurement, e.g. 10")
      elseif(value STREQUAL "overflow" OR value EQUAL 0)
        _kernel_opt_fail(${fn} ${kernel} "${what} '${text}' is not an integer from 1 to 1000000"
          KEY ${key_name} "${key_value}"
          HINT "${hint}the benchmark stops at 1000000 samples whatever the noise (its safety cap): a larger minimum is never met")
      endif()
    else()
      _kernel_opt_decimal(value "${text}")
      if(value STREQUAL "")
        _kernel_opt_fail(${fn} ${kernel} "${malformed} '${text}' is not a positive number"
          KEY ${key_name} "${key_value}" HINT "${hint}seconds, or for MAX_NOISE a fraction, e.g. 0.005")
      elseif(value STREQUAL "overflow")
        _kernel_opt_fail(${fn} ${kernel} "${what} '${text}' is not a finite number"
          KEY ${key_name} "${key_value}" HINT "${hint}${key} must be a finite, non-negative number below 1e308")
      elseif(value STREQUAL "underflow")
        _kernel_opt_fail(${fn} ${kernel} "${what} '${text}' is below 1e-300"
          KEY ${key_name} "${key_value}" HINT "${hint}a double would round it to 0 or lose its precision")
      endif()
    endif()
    if(key STREQUAL "MAX_NOISE" AND (value EQUAL 0 OR NOT value LESS 1))
      _kernel_opt_fail(${fn} ${kernel} "${what} '${text}' is not a fraction above 0 and below 1"
        KEY ${key_name} "${key_value}"
        HINT "${hint}the relative noise of the median below which sampling stops (0.005 is 0.5 %): at 0 no measurement converges, at 1 or more every one stops at once")
    endif()
    if(key STREQUAL "MAX_TIME" AND value EQUAL 0)
      _kernel_opt_fail(${fn} ${kernel} "${what} '${text}' is not above 0"
        KEY ${key_name} "${key_value}"
        HINT "${hint}the wall time in seconds after which sampling stops short of the noise bound; kopt refuses 0")
    endif()
    set(value_${key} "${value}")
    list(APPEND result "${value}")
  endforeach()
  if(NOT value_MIN_TIME LESS value_MAX_TIME)
    _kernel_opt_fail(${fn} ${kernel} "${what_MIN_TIME} '${text_MIN_TIME}' is not below ${what_MAX_TIME} '${text_MAX_TIME}'"
      KEY "${what_MIN_TIME}" "${text_MIN_TIME}" KEY "${what_MAX_TIME}" "${text_MAX_TIME}"
      HINT "MIN_TIME counts the time of the samples, which never reaches the MAX_TIME seconds of wall time after which sampling stops: no measurement would meet it")
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()
