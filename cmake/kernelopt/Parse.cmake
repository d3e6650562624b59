# Validation and storage behind the public functions. Every check ends in
# _kernel_opt_fail, naming the function, the kernel and the argument.

# Per-kernel state lives in global properties, so that variants may be
# declared from any directory before the kernel is finalized.
function(_kernel_opt_set kernel field value)
  set_property(GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_${field} "${value}")
endfunction()

function(_kernel_opt_get out kernel field)
  get_property(value GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_${field})
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# cmake_parse_arguments reads a misspelt keyword that follows a list keyword
# as one more value of that list; values that can never be all-caps words
# report it as the unknown argument it is.
function(_kernel_opt_stray_keyword fn kernel keyword value)
  if(value MATCHES "^[A-Z][A-Z0-9_]*$")
    _kernel_opt_fail(${fn} ${kernel} "unknown argument '${value}'"
      KEY "Read as a value of" "${keyword}"
      HINT "check the spelling of the keyword; the keywords are listed at the top of cmake/KernelOpt.cmake")
  endif()
endfunction()

# _kernel_opt_choice(<fn> <kernel> <keyword> <value> <default> <choices> <out>)
function(_kernel_opt_choice fn kernel keyword value default choices out)
  if(value STREQUAL "")
    set(value "${default}")
  endif()
  if(NOT value IN_LIST choices)
    string(REPLACE ";" ", " pretty "${choices}")
    _kernel_opt_fail(${fn} ${kernel} "${keyword} must be one of ${pretty}" KEY ${keyword} "${value}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

function(_kernel_opt_parse_dims fn kernel dims)
  set(seen "")
  list(JOIN dims " " dims_text)
  foreach(dim IN LISTS dims)
    _kernel_opt_cxx_name(${fn} ${kernel} "DIMS entry" "${dim}" KEY DIMS "${dims_text}")
    # TARGET reads these names as measurements: a DIM of that name would be
    # read instead of (or for) the measurement.
    if(dim MATCHES "^(tflops|gbps|time_ns|time_us|time_ms|speedup_vs_.*)$")
      _kernel_opt_fail(${fn} ${kernel} "DIMS entry '${dim}' is a name TARGET reads as a measurement"
        KEY DIMS "${dims_text}"
        HINT "TARGET reads tflops, gbps, time_ns, time_us, time_ms and speedup_vs_<impl> as measurements: give the dimension another name")
    endif()
    if(dim IN_LIST seen)
      _kernel_opt_fail(${fn} ${kernel} "DIMS lists '${dim}' twice" KEY DIMS "${dims}")
    endif()
    list(APPEND seen "${dim}")
  endforeach()
endfunction()

# Checks every ARGS entry; sets <out_names> to the argument names.
function(_kernel_opt_parse_args fn kernel dims args out_names)
  set(names "")
  set(writes FALSE)
  set(dtypes f64 f32 f16 bf16 i32 i64 u8)
  foreach(spec IN LISTS args)
    _kernel_opt_stray_keyword(${fn} ${kernel} ARGS "${spec}")
    if(NOT spec MATCHES "^[ ]*([a-z]+)[ ]+([^ ]+)[ ]+([A-Za-z0-9_]+)[ ]*\\[([^]]*)\\][ ]*$")
      _kernel_opt_fail(${fn} ${kernel} "malformed ARGS entry \"${spec}\""
        KEY ARGS "${spec}"
        HINT "write \"<in|out|inout> <name> <dtype>[<axis>,...]\", e.g. \"in A bf16[M,K]\"")
    endif()
    set(direction "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    set(type "${CMAKE_MATCH_3}")
    set(axes "${CMAKE_MATCH_4}")
    if(NOT direction MATCHES "^(in|out|inout)$")
      _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\": direction '${direction}' must be in, out or inout")
    endif()
    if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\": '${name}' is not a valid identifier")
    endif()
    _kernel_opt_cxx_name(${fn} ${kernel} "ARGS entry \"${spec}\": name" "${name}" KEY ARGS "${spec}")
    if(NOT type IN_LIST dtypes)
      list(JOIN dtypes ", " known)
      _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\": unknown dtype '${type}'"
        KEY "Known dtypes" "${known}")
    endif()
    if(name IN_LIST names)
      _kernel_opt_fail(${fn} ${kernel} "ARGS declares '${name}' twice" KEY ARGS "${args}")
    endif()
    if(name IN_LIST dims)
      _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\": '${name}' is also a DIM")
    endif()
    if(axes MATCHES "^[ ]*$")
      _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\" has no axes" HINT "a single value is [1]")
    endif()
    # Commas inside function calls (ceil_div(N,128)) do not split an axis.
    _kernel_opt_split_commas(merged "${axes}")
    foreach(axis IN LISTS merged)
      _kernel_opt_check_expr(error used "${axis}" FALSE)
      if(NOT error STREQUAL "")
        _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\": malformed axis \"${axis}\": ${error}")
      endif()
      foreach(use IN LISTS used)
        if(NOT use IN_LIST dims)
          _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\" uses undeclared dim '${use}'"
            KEY DIMS "${dims}"
            HINT "add '${use}' to DIMS or fix the axis expression")
        endif()
      endforeach()
    endforeach()
    if(NOT direction STREQUAL "in")
      set(writes TRUE)
    endif()
    list(APPEND names "${name}")
    set_property(GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_ARG_${name} "${direction};${type};${merged}")
  endforeach()
  if(NOT writes)
    _kernel_opt_fail(${fn} ${kernel} "ARGS has no out or inout tensor: nothing to check" KEY ARGS "${args}")
  endif()
  set(${out_names} "${names}" PARENT_SCOPE)
endfunction()

# Checks shapes "d=v,..."; <out> gets them normalized (DIMS order).
function(_kernel_opt_parse_shapes fn kernel keyword dims shapes out)
  set(result "")
  foreach(shape IN LISTS shapes)
    _kernel_opt_stray_keyword(${fn} ${kernel} ${keyword} "${shape}")
    string(REPLACE " " "" compact "${shape}")
    string(REPLACE "," ";" assignments "${compact}")
    set(seen "")
    foreach(assignment IN LISTS assignments)
      if(NOT assignment MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=([0-9]+)$")
        _kernel_opt_fail(${fn} ${kernel} "${keyword} entry \"${shape}\": '${assignment}' is not <dim>=<positive integer>"
          KEY ${keyword} "${shape}")
      endif()
      set(dim "${CMAKE_MATCH_1}")
      set(value "${CMAKE_MATCH_2}")
      if(NOT dim IN_LIST dims)
        _kernel_opt_fail(${fn} ${kernel} "${keyword} entry \"${shape}\" sets unknown dimension ${dim}"
          KEY DIMS "${dims}")
      endif()
      if(dim IN_LIST seen)
        _kernel_opt_fail(${fn} ${kernel} "${keyword} entry \"${shape}\" sets dimension ${dim} twice")
      endif()
      _kernel_opt_int64_literal(value "${value}")
      if(value STREQUAL "overflow")
        _kernel_opt_fail(${fn} ${kernel} "${keyword} entry \"${shape}\" sets dimension ${dim} beyond int64"
          KEY ${keyword} "${shape}"
          HINT "a dimension is passed as int64_t: at most 9223372036854775807")
      endif()
      if(value EQUAL 0)
        _kernel_opt_fail(${fn} ${kernel} "${keyword} entry \"${shape}\" sets dimension ${dim} to 0")
      endif()
      list(APPEND seen "${dim}")
      set(value_${dim} "${value}")
    endforeach()
    set(normalized "")
    foreach(dim IN LISTS dims)
      if(NOT dim IN_LIST seen)
        _kernel_opt_fail(${fn} ${kernel} "${keyword} entry \"${shape}\" does not set dimension ${dim}"
          KEY DIMS "${dims}"
          HINT "every shape sets each of DIMS exactly once")
      endif()
      list(APPEND normalized "${dim}=${value_${dim}}")
    endforeach()
    list(JOIN normalized "," normalized)
    if(normalized IN_LIST result)
      _kernel_opt_fail(${fn} ${kernel} "${keyword} lists \"${shape}\" twice")
    endif()
    list(APPEND result "${normalized}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# The range of values each dtype holds, for INIT: "<lo>;<hi>" as
# rationals, or "" where every value configure can evaluate exactly (within
# int64) fits; then what a message calls it. A normal draw lies within
# 8.58 standard deviations of its mean: the harness's Box-Muller transform
# of 53-bit uniforms reaches at most sqrt(106 ln 2) = 8.5717.
set_property(GLOBAL PROPERTY _KERNEL_OPT_DTYPE_RANGE_u8 "0/1;255/1")
set_property(GLOBAL PROPERTY _KERNEL_OPT_DTYPE_RANGE_i32 "-2147483648/1;2147483647/1")
set_property(GLOBAL PROPERTY _KERNEL_OPT_DTYPE_RANGE_f16 "-65504/1;65504/1")
set_property(GLOBAL PROPERTY _KERNEL_OPT_DTYPE_LIMIT_u8 "0 to 255")
set_property(GLOBAL PROPERTY _KERNEL_OPT_DTYPE_LIMIT_i32 "-2147483648 to 2147483647")
set_property(GLOBAL PROPERTY _KERNEL_OPT_DTYPE_LIMIT_f16 "-65504 to 65504")
set_property(GLOBAL PROPERTY _KERNEL_OPT_DTYPE_LIMIT_bf16 "-3.3895313892515355e38 to 3.3895313892515355e38")
set_property(GLOBAL PROPERTY _KERNEL_OPT_DTYPE_LIMIT_f32 "-3.4028234663852886e38 to 3.4028234663852886e38")
set_property(GLOBAL PROPERTY _KERNEL_OPT_DTYPE_LIMIT_f64 "-1.7976931348623157e308 to 1.7976931348623157e308")
set_property(GLOBAL PROPERTY _KERNEL_OPT_NORMAL_REACH "429/50")

# INIT entries: <arg>=<kind>(<lo>,<hi>), exactly two bounds over DIMS. At
# every shape of <shapes> where the bounds have an exact value
# (Rational.cmake), the values the fill draws must be non-empty (randint)
# and within the argument's dtype; bounds without one (sqrt, log2) are
# checked by the harness at run time (framework/src/harness/inputs.cpp).
function(_kernel_opt_parse_inits fn kernel dims inits shapes)
  set(seen "")
  foreach(init IN LISTS inits)
    _kernel_opt_stray_keyword(${fn} ${kernel} INIT "${init}")
    if(NOT init MATCHES "^[ ]*([A-Za-z_][A-Za-z0-9_]*)[ ]*=[ ]*(uniform|normal|randint)[ ]*\\((.*)\\)[ ]*$")
      _kernel_opt_fail(${fn} ${kernel} "malformed INIT entry \"${init}\""
        HINT "write <arg>=uniform(lo,hi), <arg>=normal(mean,stddev) or <arg>=randint(lo,hi)")
    endif()
    set(name "${CMAKE_MATCH_1}")
    set(kind "${CMAKE_MATCH_2}")
    set(bounds_text "${CMAKE_MATCH_3}")
    get_property(arg GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_ARG_${name})
    if("${arg}" STREQUAL "")
      _kernel_opt_fail(${fn} ${kernel} "INIT entry \"${init}\" names unknown argument '${name}'")
    endif()
    list(GET arg 0 direction)
    list(GET arg 1 dtype)
    if(direction STREQUAL "out")
      _kernel_opt_fail(${fn} ${kernel} "INIT entry \"${init}\": '${name}' is an output; outputs are poisoned, not filled")
    endif()
    if(name IN_LIST seen)
      _kernel_opt_fail(${fn} ${kernel} "INIT sets '${name}' twice")
    endif()
    list(APPEND seen "${name}")
    # The bounds: split at the commas outside parentheses (ceil_div(M,2)).
    _kernel_opt_split_commas(bounds "${bounds_text}")
    list(LENGTH bounds n_bounds)
    set(error "")
    if(bounds_text MATCHES "^[ ]*(,|$)|,[ ]*(,|$)")
      set(error "an empty bound")
    elseif(NOT n_bounds EQUAL 2)
      set(error "${kind} takes two bounds, not ${n_bounds}")
    endif()
    foreach(bound IN LISTS bounds)
      if(error STREQUAL "")
        _kernel_opt_check_expr(error used "${bound}" FALSE)
      endif()
      foreach(use IN LISTS used)
        if(error STREQUAL "" AND NOT use IN_LIST dims)
          set(error "'${use}' is not one of DIMS")
        endif()
      endforeach()
    endforeach()
    if(NOT error STREQUAL "")
      _kernel_opt_fail(${fn} ${kernel} "malformed INIT entry \"${init}\": ${error}"
        KEY INIT "${init}"
        HINT "write <arg>=uniform(lo,hi), <arg>=normal(mean,stddev) or <arg>=randint(lo,hi), each bound an expression over DIMS")
    endif()
    list(SUBLIST arg 2 -1 axes)
    list(JOIN axes "," axes)
    set(spec "${direction} ${name} ${dtype}[${axes}]")
    if(dtype MATCHES "^(i32|i64|u8)$" AND NOT kind STREQUAL "randint")
      _kernel_opt_fail(${fn} ${kernel} "INIT entry \"${init}\": '${name}' is ${dtype}, an integer type: it takes randint(lo,hi)"
        KEY INIT "${init}" KEY ARGS "${spec}"
        HINT "uniform and normal draw real numbers, which an integer tensor would round (uniform reaching hi) or wrap (normal's tails); randint(lo,hi) draws the integers from ceil(lo) to ceil(hi) - 1")
    endif()
    _kernel_opt_init_values(${fn} ${kernel} "${init}" "${spec}" ${kind} ${dtype} "${bounds}" "${shapes}")
  endforeach()
endfunction()

# The values INIT entry <init> (of the argument declared as <spec>) draws at
# each of <shapes>, where its <bounds> have exact values: a randint range
# must be non-empty, with bounds below 2^62 in magnitude (what the harness
# can draw), and every value within <dtype>. A bound beyond int64 is
# checked here only when it is a plain number (uniform, floating dtypes);
# sqrt, log2 and the like are left to the harness, which checks the same.
function(_kernel_opt_init_values fn kernel init spec kind dtype bounds shapes)
  get_property(range GLOBAL PROPERTY _KERNEL_OPT_DTYPE_RANGE_${dtype})
  get_property(limit GLOBAL PROPERTY _KERNEL_OPT_DTYPE_LIMIT_${dtype})
  get_property(reach GLOBAL PROPERTY _KERNEL_OPT_NORMAL_REACH)
  set(uses_dims FALSE)
  foreach(bound IN LISTS bounds)
    _kernel_opt_check_expr(error used "${bound}" FALSE)
    if(NOT used STREQUAL "")
      set(uses_dims TRUE)
    endif()
  endforeach()
  if(NOT uses_dims)
    list(GET shapes 0 shapes)  # the same value at every shape
  endif()
  foreach(shape IN LISTS shapes)
    set(at "")
    set(where "")
    if(uses_dims)
      set(at KEY Shape "${shape}")
      set(where " at shape ${shape}")
    endif()
    string(REPLACE "," ";" bindings "${shape}")
    set(values "")
    set(unknown FALSE)
    foreach(bound IN LISTS bounds)
      _kernel_opt_eval_exact(value "${bound}" ${bindings})
      string(STRIP "${bound}" shown)
      if(value STREQUAL "division by zero")
        _kernel_opt_fail(${fn} ${kernel} "INIT entry \"${init}\": bound \"${shown}\" divides by zero${where}"
          KEY INIT "${init}" ${at})
      elseif(value STREQUAL "overflow")
        if(kind STREQUAL "randint")
          _kernel_opt_fail(${fn} ${kernel} "INIT entry \"${init}\": randint bound \"${shown}\" is beyond 2^62 in magnitude${where}"
            KEY INIT "${init}" ${at}
            HINT "randint draws int64 values from bounds the harness reads as doubles: each must be below 2^62 in magnitude as a double, at most 4611686018427387647")
        endif()
        if(kind STREQUAL "uniform" AND shown MATCHES "^-?[ ]*([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?$")
          # A plain number beyond int64: compared as a double, as the harness reads it.
          string(REGEX REPLACE "[- ]" "" magnitude "${shown}")
          string(REGEX REPLACE " .*$" "" top "${limit}")
          string(REGEX REPLACE "^-" "" top "${top}")
          if(magnitude GREATER top)
            _kernel_opt_fail(${fn} ${kernel} "INIT entry \"${init}\": bound ${shown} is beyond ${dtype} (${limit})"
              KEY INIT "${init}" KEY ARGS "${spec}"
              HINT "the fill's values are stored as ${dtype}: beyond its range they would become infinite")
          endif()
        endif()
        set(unknown TRUE)
      elseif(NOT value MATCHES "/")
        set(unknown TRUE)  # sqrt, log2, ...: the harness checks it
      endif()
      list(APPEND values "${value}")
    endforeach()
    if(unknown)
      continue()
    endif()
    list(GET values 0 a)
    list(GET values 1 b)
    if(kind STREQUAL "randint")
      foreach(v IN ITEMS ${a} ${b})
        _kernel_opt_rational_op(negated neg ${v})
        _kernel_opt_rational_op(magnitude max ${v} ${negated})
        # Below 2^62 as a double: 2^62 - 256 and above round to 2^62.
        _kernel_opt_rational_compare(order ${magnitude} "4611686018427387648/1")
        if(NOT order EQUAL -1)
          _kernel_opt_rational_text(shown ${v})
          _kernel_opt_fail(${fn} ${kernel} "INIT entry \"${init}\": randint bound ${shown} is not below 2^62 in magnitude as a double${where}"
            KEY INIT "${init}" ${at}
            HINT "randint draws int64 values from bounds the harness reads as doubles: each must be below 2^62 in magnitude as a double, at most 4611686018427387647")
        endif()
      endforeach()
      _kernel_opt_rational_op(low ceil ${a})
      _kernel_opt_rational_op(high ceil ${b})
      _kernel_opt_rational_compare(order ${low} ${high})
      _kernel_opt_rational_text(low_text ${low})
      _kernel_opt_rational_text(high_text ${high})
      if(NOT order EQUAL -1)
        _kernel_opt_fail(${fn} ${kernel} "INIT entry \"${init}\": the range [${low_text}, ${high_text}) is empty${where}"
          KEY INIT "${init}" ${at}
          HINT "randint(lo,hi) draws the integers from ceil(lo) to ceil(hi) - 1: hi is exclusive")
      endif()
      set(lowest ${low})
      _kernel_opt_rational_op(highest - ${high} "1/1")
    elseif(kind STREQUAL "uniform")
      _kernel_opt_rational_op(lowest min ${a} ${b})
      _kernel_opt_rational_op(highest max ${a} ${b})
    else()
      _kernel_opt_rational_op(negated neg ${b})
      _kernel_opt_rational_op(spread max ${b} ${negated})
      _kernel_opt_rational_op(spread * ${spread} ${reach})
      set(lowest overflow)
      set(highest overflow)
      if(spread MATCHES "/")
        _kernel_opt_rational_op(lowest - ${a} ${spread})
        _kernel_opt_rational_op(highest + ${a} ${spread})
      endif()
    endif()
    if("${range}" STREQUAL "")
      # Every value within int64 fits (i64: randint's 2^62 bound); a normal
      # reach beyond int64 is left to the harness.
      continue()
    endif()
    list(GET range 0 min)
    list(GET range 1 max)
    foreach(side IN ITEMS lowest highest)
      set(beyond FALSE)
      if(NOT ${side} MATCHES "/")
        set(beyond TRUE)  # normal's reach beyond int64: far beyond f16
      else()
        _kernel_opt_rational_compare(below ${${side}} ${min})
        _kernel_opt_rational_compare(above ${${side}} ${max})
        if(below EQUAL -1 OR above EQUAL 1)
          set(beyond TRUE)
        endif()
      endif()
      if(beyond)
        _kernel_opt_rational_text(reached "${${side}}")
        set(how "its values reach ${reached}")
        if(kind STREQUAL "normal")
          set(how "its values reach ${reached} (the mean plus or minus 8.58 standard deviations, the most the harness's normal draws reach)")
        endif()
        _kernel_opt_fail(${fn} ${kernel} "INIT entry \"${init}\": ${how}, beyond ${dtype} (${limit})${where}"
          KEY INIT "${init}" KEY ARGS "${spec}" ${at}
          HINT "the fill's values are stored as ${dtype}: keep them within its range")
      endif()
    endforeach()
  endforeach()
endfunction()

function(_kernel_opt_check_target fn kernel dims condition)
  _kernel_opt_stray_keyword(${fn} ${kernel} TARGET "${condition}")
  _kernel_opt_check_expr(error names "${condition}" TRUE)
  if(error STREQUAL "")
    foreach(name IN LISTS names)
      if(NOT name MATCHES "^(tflops|gbps|time_ns|time_us|time_ms|speedup_vs_[A-Za-z0-9_]+|(peak|ceiling|pct_of_ceiling)\\.[A-Za-z0-9_]+)$"
         AND NOT name IN_LIST dims)
        set(error "unknown name '${name}'")
      endif()
    endforeach()
  endif()
  if(NOT error STREQUAL "")
    _kernel_opt_fail(${fn} ${kernel} "malformed TARGET: ${error}"
      KEY TARGET "${condition}"
      HINT "a TARGET compares tflops, gbps, time_ns, time_us, time_ms, speedup_vs_<impl>, pct_of_ceiling.<name>, peak.<name>, ceiling.<name> and DIMS, e.g. \"tflops >= 0.9*peak.bf16_tensor\"")
  endif()
endfunction()

# Absolute paths of <files>; each must exist.
function(_kernel_opt_sources fn kernel keyword files out)
  set(result "")
  foreach(file IN LISTS files)
    cmake_path(ABSOLUTE_PATH file BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE OUTPUT_VARIABLE path)
    if(NOT EXISTS "${path}")
      _kernel_opt_stray_keyword(${fn} ${kernel} ${keyword} "${file}")
      _kernel_opt_fail(${fn} ${kernel} "${keyword} file '${file}' does not exist" KEY Path "${path}")
    endif()
    if(IS_DIRECTORY "${path}")
      _kernel_opt_fail(${fn} ${kernel} "${keyword} entry '${file}' is a directory, not a file" KEY Path "${path}"
        HINT "list the files themselves")
    endif()
    get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(path MATCHES "\\.cu$" AND NOT "CUDA" IN_LIST languages)
      _kernel_opt_fail(${fn} ${kernel} "${keyword} file '${file}' is CUDA, but the CUDA language is not enabled" KEY Path "${path}"
        HINT "add CUDA to project(... LANGUAGES ...) or call enable_language(CUDA) before this")
    endif()
    list(APPEND result "${path}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# LIBRARIES / REFERENCE_LIBRARIES: a name with '::' must be a target here,
# and one the directory that declares <kernel> sees, since the modules are
# made there, when that directory ends. An imported target of this
# directory is made global for that; one of another directory is an error.
function(_kernel_opt_check_libraries fn kernel keyword libraries)
  _kernel_opt_get(kernel_dir ${kernel} SOURCE_DIR)
  foreach(library IN LISTS libraries)
    if(NOT library MATCHES "::" OR library MATCHES "^\\$<")
      continue()  # -l<name>, a path or a generator expression: the linker's
    endif()
    if(NOT TARGET "${library}")
      _kernel_opt_fail(${fn} ${kernel} "${keyword} entry '${library}' is not a target"
        KEY ${keyword} "${library}"
        HINT "a name with '::' is a CMake target: find_package or add_library it before this call")
    endif()
    set(target "${library}")
    get_target_property(aliased "${library}" ALIASED_TARGET)
    if(aliased)
      set(target "${aliased}")
    endif()
    get_target_property(imported "${target}" IMPORTED)
    get_target_property(global "${target}" IMPORTED_GLOBAL)
    get_target_property(made_in "${target}" SOURCE_DIR)
    if(NOT imported OR global OR kernel_dir STREQUAL "")
      continue()
    endif()
    # Visible where it was made and in the directories added below it
    # (add_subdirectory, whatever their paths): the kernel's directory or
    # one of the directories above it.
    set(visible FALSE)
    set(dir "${kernel_dir}")
    while(NOT dir STREQUAL "")
      if(dir STREQUAL made_in)
        set(visible TRUE)
        break()
      endif()
      get_directory_property(dir DIRECTORY "${dir}" PARENT_DIRECTORY)
    endwhile()
    if(visible)
      continue()
    endif()
    if(made_in STREQUAL CMAKE_CURRENT_SOURCE_DIR)
      set_property(TARGET "${target}" PROPERTY IMPORTED_GLOBAL TRUE)
    else()
      _kernel_opt_fail(${fn} ${kernel} "${keyword} entry '${library}' is an imported target that the directory of kernel '${kernel}' does not see"
        KEY ${keyword} "${library}" KEY "Imported in" "${made_in}" KEY "Kernel declared in" "${kernel_dir}"
        HINT "the modules are made where the kernel is declared: import it there, or with add_library(... IMPORTED GLOBAL)")
    endif()
  endforeach()
endfunction()

# EXPECT_FAILURE / EXPECT_BENCH_FAILURE <regex>: it becomes part of a CTest
# PASS_REGULAR_EXPRESSION, so it must compile there and hold no ';' (a list
# separator: the rest would be a second, alternative expression).
function(_kernel_opt_check_test_regex fn kernel keyword role name regex)
  if(regex MATCHES ";")
    _kernel_opt_fail(${fn} ${kernel} "${keyword} of ${role} '${name}' contains ';'"
      KEY ${keyword} "${regex}"
      HINT "CMake reads ';' as a list separator; match it with '.' instead")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DREGEX=${regex}" -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CheckRegex.cmake"
    RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE error)
  if(NOT status EQUAL 0)
    string(REGEX REPLACE "[\n ]+" " " error "${error}")
    string(REGEX MATCH "[Ff]ailed to compile regex.*$" why "${error}")
    if(why STREQUAL "")
      string(STRIP "${error}" why)
    endif()
    _kernel_opt_fail(${fn} ${kernel} "${keyword} of ${role} '${name}' is not a regular expression CTest can compile"
      KEY ${keyword} "${regex}" KEY "CMake says" "${why}"
      HINT "CMake's regular expressions: . [] () * + ? ^ $ |, no \\d or {n}; escape a literal parenthesis as \\("
    )
  endif()
endfunction()

# A name that is one of the calling function's keywords (its caller's
# options, one_value and multi_value lists) means the name was left out.
function(_kernel_opt_missing_name fn kernel what name)
  if(name IN_LIST options OR name IN_LIST one_value OR name IN_LIST multi_value)
    _kernel_opt_fail(${fn} "${kernel}" "the ${what}'s name is missing: '${name}' is a keyword"
      HINT "the ${what}'s name comes first, before the keywords")
  endif()
endfunction()

# Shared by kernel_opt_add_variant and kernel_opt_add_baseline, reading the
# caller's arg_* variables. <role> is variant or baseline.
function(_kernel_opt_add_impl fn role kernel name)
  _kernel_opt_missing_name(${fn} "${kernel}" ${role} "${name}")
  _kernel_opt_check_parsed(${fn} "${kernel}" arg)
  get_property(known GLOBAL PROPERTY _KERNEL_OPT_KERNELS)
  if(NOT kernel IN_LIST known)
    _kernel_opt_fail(${fn} "${kernel}" "unknown kernel '${kernel}'"
      HINT "declare it with kernel_opt_add_kernel(${kernel} ...) first")
  endif()
  _kernel_opt_get(finalized ${kernel} FINALIZED)
  if(finalized)
    _kernel_opt_fail(${fn} ${kernel} "kernel '${kernel}' is already generated; ${role} '${name}' comes too late"
      HINT "declare variants in the directory that declares the kernel (or a subdirectory it adds before it ends)")
  endif()
  _kernel_opt_check_name(${fn} ${kernel} "${role} name" "${name}")
  if(name MATCHES "^(reference|parent|spec|test|bench)$")
    _kernel_opt_fail(${fn} ${kernel} "${role} name '${name}' is reserved"
      KEY "Reserved names" "reference, parent, spec, test, bench"
      HINT "reference and parent are what TARGET's speedup_vs_reference and speedup_vs_parent compare with; spec, test and bench name the kernel's generated targets (${kernel}_kopt_test)")
  endif()
  _kernel_opt_get(variants ${kernel} VARIANTS)
  _kernel_opt_get(baselines ${kernel} BASELINES)
  if(name IN_LIST variants OR name IN_LIST baselines)
    _kernel_opt_fail(${fn} ${kernel} "duplicate ${role} '${name}'"
      KEY Variants "${variants}" KEY Baselines "${baselines}")
  endif()
  _kernel_opt_all_points(points ${kernel})
  if(name IN_LIST points)
    foreach(candidate IN LISTS variants)
      _kernel_opt_get(family_points ${kernel} IMPL_${candidate}_POINTS)
      if(name IN_LIST family_points)
        set(family "${candidate}")
        list(JOIN family_points ", " family_points)
        break()
      endif()
    endforeach()
    _kernel_opt_fail(${fn} ${kernel} "${role} name '${name}' is the name of a point of family '${family}'"
      KEY "Points of ${family}" "${family_points}"
      HINT "the points of a family are implementations named <variant>_p<index>: rename the ${role}")
  endif()
  _kernel_opt_require(${fn} ${kernel} arg SOURCES ENTRY)
  if(NOT arg_ENTRY MATCHES "^(::)?([A-Za-z_][A-Za-z0-9_]*::)*[A-Za-z_][A-Za-z0-9_]*$")
    _kernel_opt_fail(${fn} ${kernel} "ENTRY '${arg_ENTRY}' of ${role} '${name}' is not a function name")
  endif()
  foreach(keyword IN ITEMS EXPECT_FAILURE EXPECT_BENCH_FAILURE)
    if(DEFINED arg_${keyword})
      _kernel_opt_check_test_regex(${fn} ${kernel} ${keyword} ${role} "${name}" "${arg_${keyword}}")
    endif()
  endforeach()
  if(DEFINED arg_EXPECT_FAILURE AND DEFINED arg_EXPECT_BENCH_FAILURE)
    _kernel_opt_fail(${fn} ${kernel} "${role} '${name}' gives both EXPECT_FAILURE and EXPECT_BENCH_FAILURE"
      HINT "EXPECT_FAILURE already covers the benchmark test; EXPECT_BENCH_FAILURE is for a ${role} whose correctness test passes")
  endif()
  _kernel_opt_sources(${fn} ${kernel} SOURCES "${arg_SOURCES}" sources)
  _kernel_opt_check_libraries(${fn} ${kernel} LIBRARIES "${arg_LIBRARIES}")

  _kernel_opt_entry_source(${fn} ${kernel} "${role} '${name}'" "${arg_ENTRY}" "${sources}" entry_source)
  _kernel_opt_parse_arch_needs(${fn} ${kernel} ${name})
  _kernel_opt_parse_entry_form(${fn} ${kernel} ${role} ${name})

  set(parent "")
  set(hypothesis "")
  set(methods "")
  if(role STREQUAL "variant")
    if(DEFINED arg_PARENT)
      if(NOT arg_PARENT IN_LIST variants)
        _kernel_opt_fail(${fn} ${kernel} "unknown PARENT '${arg_PARENT}' of variant '${name}'"
          KEY Variants "${variants}"
          HINT "a parent is a variant declared before this one")
      endif()
      set(parent "${arg_PARENT}")
    endif()
    if(DEFINED arg_HYPOTHESIS AND DEFINED arg_HYPOTHESIS_FILE)
      _kernel_opt_fail(${fn} ${kernel} "variant '${name}' gives both HYPOTHESIS and HYPOTHESIS_FILE")
    endif()
    if(DEFINED arg_HYPOTHESIS)
      set(hypothesis "${arg_HYPOTHESIS}")
    elseif(DEFINED arg_HYPOTHESIS_FILE)
      _kernel_opt_sources(${fn} ${kernel} HYPOTHESIS_FILE "${arg_HYPOTHESIS_FILE}" hypothesis_file)
      file(READ "${hypothesis_file}" hypothesis)
      string(STRIP "${hypothesis}" hypothesis)
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${hypothesis_file}")
      if(hypothesis STREQUAL "")
        _kernel_opt_fail(${fn} ${kernel} "HYPOTHESIS_FILE of variant '${name}' is empty"
          KEY HYPOTHESIS_FILE "${hypothesis_file}"
          HINT "write the hypothesis in it: what should move, and by how much")
      endif()
    endif()
    if(DEFINED arg_HYPOTHESIS)
      string(STRIP "${arg_HYPOTHESIS}" stripped)
      if(stripped STREQUAL "")
        _kernel_opt_fail(${fn} ${kernel} "HYPOTHESIS of variant '${name}' is blank"
          KEY HYPOTHESIS "${arg_HYPOTHESIS}"
          HINT "state what should move, and by how much, or leave HYPOTHESIS out")
      endif()
    endif()
    _kernel_opt_static_keywords(${fn} ${kernel} ${name})
    _kernel_opt_parse_methods(${fn} ${kernel} ${name} methods switches)
    _kernel_opt_set(${kernel} IMPL_${name}_SWITCHES "${switches}")
    _kernel_opt_parse_family(${fn} ${kernel} ${name})
    _kernel_opt_get(points ${kernel} IMPL_${name}_POINTS)
    foreach(point IN LISTS points)
      if(point IN_LIST variants OR point IN_LIST baselines)
        _kernel_opt_fail(${fn} ${kernel} "point '${point}' of family '${name}' has the name of a declared implementation"
          KEY Variants "${variants}" KEY Baselines "${baselines}"
          HINT "the points of a family are implementations named <variant>_p<index>: rename the family or the implementation '${point}'")
      endif()
    endforeach()
    list(APPEND variants "${name}")
    _kernel_opt_set(${kernel} VARIANTS "${variants}")
  else()
    list(APPEND baselines "${name}")
    _kernel_opt_set(${kernel} BASELINES "${baselines}")
  endif()
  set(prefix IMPL_${name})
  _kernel_opt_set(${kernel} ${prefix}_ROLE "${role}")
  _kernel_opt_set(${kernel} ${prefix}_ENTRY "${arg_ENTRY}")
  _kernel_opt_set(${kernel} ${prefix}_SOURCES "${sources}")
  _kernel_opt_set(${kernel} ${prefix}_ENTRY_SOURCE "${entry_source}")
  _kernel_opt_set(${kernel} ${prefix}_PARENT "${parent}")
  _kernel_opt_set(${kernel} ${prefix}_HYPOTHESIS "${hypothesis}")
  _kernel_opt_set(${kernel} ${prefix}_METHODS "${methods}")
  _kernel_opt_set(${kernel} ${prefix}_LIBRARIES "${arg_LIBRARIES}")
  _kernel_opt_set(${kernel} ${prefix}_EXPECT_FAILURE "${arg_EXPECT_FAILURE}")
  _kernel_opt_set(${kernel} ${prefix}_EXPECT_BENCH_FAILURE "${arg_EXPECT_BENCH_FAILURE}")
  _kernel_opt_set(${kernel} ${prefix}_COMPILE_OPTIONS "${arg_COMPILE_OPTIONS}")
endfunction()

# The source among <sources> that mentions "<entry>(": it is compiled through
# a wrapper that checks the entry's signature right after it (Codegen.cmake).
function(_kernel_opt_entry_source fn kernel what entry sources out)
  string(REGEX REPLACE "^.*::" "" short "${entry}")
  foreach(source IN LISTS sources)
    file(STRINGS "${source}" hits REGEX "(^|[^A-Za-z0-9_])${short}[ \t]*\\(")
    if(hits)
      set(${out} "${source}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  _kernel_opt_fail(${fn} ${kernel} "ENTRY '${entry}' of ${what} is not defined in its sources"
    KEY Sources "${sources}"
    HINT "the entry point must be defined in one of the listed source files")
endfunction()

# DIM_TYPE int64|int|size_t and STREAM LAST|NONE: the form of an existing
# launch function, adopted as it is (the caller's arg_DIM_TYPE, arg_STREAM).
# With DIM_TYPE int every dimension of SHAPES and QUICK_SHAPES must fit.
function(_kernel_opt_parse_entry_form fn kernel role name)
  _kernel_opt_choice(${fn} ${kernel} DIM_TYPE "${arg_DIM_TYPE}" int64 "int64;int;size_t" dim_type)
  _kernel_opt_choice(${fn} ${kernel} STREAM "${arg_STREAM}" LAST "LAST;NONE" stream)
  _kernel_opt_get(backend ${kernel} BACKEND)
  if(DEFINED arg_STREAM AND NOT backend STREQUAL "cuda")
    _kernel_opt_fail(${fn} ${kernel} "${role} '${name}' sets STREAM, but kernel '${kernel}' has BACKEND ${backend}"
      KEY STREAM "${arg_STREAM}"
      HINT "host entry points take no stream; remove STREAM")
  endif()
  if(dim_type STREQUAL "int")
    _kernel_opt_get(shapes ${kernel} SHAPES)
    _kernel_opt_get(quick ${kernel} QUICK_SHAPES)
    foreach(keyword IN ITEMS SHAPES QUICK_SHAPES)
      if(keyword STREQUAL "SHAPES")
        set(list "${shapes}")
      else()
        set(list "${quick}")
      endif()
      foreach(shape IN LISTS list)
        string(REPLACE "," ";" assignments "${shape}")
        foreach(assignment IN LISTS assignments)
          string(REGEX MATCH "^([^=]*)=(.*)$" _ "${assignment}")
          set(dim "${CMAKE_MATCH_1}")
          set(value "${CMAKE_MATCH_2}")
          string(LENGTH "${value}" digits)
          # Values are normalized int64 literals: compare by length, then as numbers.
          if(digits GREATER 10 OR (digits EQUAL 10 AND value STRGREATER "2147483647"))
            _kernel_opt_fail(${fn} ${kernel} "${role} '${name}' has DIM_TYPE int, but ${keyword} entry \"${shape}\" sets ${dim} beyond INT_MAX"
              KEY DIM_TYPE "${dim_type}"
              KEY ${keyword} "${shape}"
              HINT "an int dimension is at most 2147483647: use DIM_TYPE int64 (the default) or size_t, or a smaller shape")
          endif()
        endforeach()
      endforeach()
    endforeach()
  endif()
  _kernel_opt_set(${kernel} IMPL_${name}_DIM_TYPE "${dim_type}")
  _kernel_opt_set(${kernel} IMPL_${name}_STREAM "${stream}")
endfunction()

# METHODS of variant <name> (the caller's arg_METHODS, arg_SASS_SIGNATURES):
# each entry <method> or <method>=<MACRO>, the second a method the ablation
# can switch off (docs/ablation.md). <out_methods>: the method names, in
# order; <out_switches>: "<method>=<MACRO>" of the switchable ones.
function(_kernel_opt_parse_methods fn kernel name out_methods out_switches)
  set(methods "")
  set(switches "")
  set(macros "")
  foreach(entry IN LISTS arg_METHODS)
    _kernel_opt_stray_keyword(${fn} ${kernel} METHODS "${entry}")
    set(method "${entry}")
    set(macro "")
    if(entry MATCHES "=")
      if(NOT entry MATCHES "^([a-z0-9_]+)=([^=]*)$")
        _kernel_opt_fail(${fn} ${kernel} "METHODS entry '${entry}' of variant '${name}' is not <method> or <method>=<MACRO>"
          KEY METHODS "${arg_METHODS}"
          HINT "e.g. METHODS cp_async=KOPT_USE_CP_ASYNC: the method, then the macro that switches it off as 0")
      endif()
      set(method "${CMAKE_MATCH_1}")
      set(macro "${CMAKE_MATCH_2}")
      if(NOT macro MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
        _kernel_opt_fail(${fn} ${kernel} "METHODS entry '${entry}' of variant '${name}': macro '${macro}' is not an identifier"
          KEY METHODS "${arg_METHODS}"
          HINT "the macro is compiled as -D<MACRO>=1 (the variant) and -D<MACRO>=0 (its ablation): letters, digits and '_', not starting with a digit")
      endif()
      _kernel_opt_cxx_name(${fn} ${kernel} "METHODS entry '${entry}' of variant '${name}': macro" "${macro}")
      # -D<MACRO> would rewrite every use of a name the generated code
      # declares: the entry's parameters, the point's parameters and macros.
      _kernel_opt_get(dims ${kernel} DIMS)
      _kernel_opt_get(arg_names ${kernel} ARG_NAMES)
      set(taken ${dims} ${arg_names} stream buffers dims KOPT_POINT)
      foreach(param IN LISTS arg_PARAMS)
        if(param MATCHES "^[ ]*([A-Za-z_][A-Za-z0-9_]*)[ ]*=")
          list(APPEND taken "${CMAKE_MATCH_1}")
        endif()
      endforeach()
      if(macro IN_LIST taken OR macro MATCHES "^KOPT_PARAM_")
        _kernel_opt_fail(${fn} ${kernel} "METHODS entry '${entry}' of variant '${name}': macro '${macro}' is a name the generated code uses"
          KEY METHODS "${entry}"
          HINT "DIMS, ARGS and PARAMS names, stream, buffers, dims, KOPT_POINT and KOPT_PARAM_* are taken: a macro of that name would rewrite them (use e.g. KOPT_USE_<METHOD>)")
      endif()
      if(macro IN_LIST macros)
        _kernel_opt_fail(${fn} ${kernel} "METHODS of variant '${name}' switch two methods with macro '${macro}'"
          KEY METHODS "${arg_METHODS}"
          HINT "one macro per method: switching one off must leave the others on")
      endif()
      list(APPEND macros "${macro}")
    endif()
    if(method IN_LIST methods)
      _kernel_opt_fail(${fn} ${kernel} "METHODS of variant '${name}' name '${method}' twice"
        KEY METHODS "${arg_METHODS}")
    endif()
    _kernel_opt_method_signature(signature "${method}" ${arg_SASS_SIGNATURES})
    if(signature STREQUAL "NOTFOUND")
      _kernel_opt_fail(${fn} ${kernel} "variant '${name}' claims unknown METHOD '${method}'"
        HINT "known methods are listed in cmake/kernelopt/Methods.cmake; another name needs SASS_SIGNATURES <name>=<regex>")
    endif()
    list(APPEND methods "${method}")
    if(NOT macro STREQUAL "")
      # The ablated build is an implementation of its own: its name must be
      # one, as the declared names are.
      _kernel_opt_check_name(${fn} ${kernel} "ablation name of METHODS entry '${entry}'" "${name}__no_${method}")
      list(APPEND switches "${method}=${macro}")
    endif()
  endforeach()
  set(${out_methods} "${methods}" PARENT_SCOPE)
  set(${out_switches} "${switches}" PARENT_SCOPE)
endfunction()
