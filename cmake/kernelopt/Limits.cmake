# The limits a declaration must stay within, so that configure refuses what
# would only fail later (a file-write error, a heap overflow in the harness,
# an infinite tolerance in every record). The rst block of KernelOpt.cmake
# documents them; framework/src/harness/inputs.cpp checks the same tensor
# bound at run time.

# Kernel, variant and baseline names name directories, files, targets and
# tests: at most this many characters.
set_property(GLOBAL PROPERTY _KERNEL_OPT_MAX_NAME_LENGTH 64)
# Bytes of one tensor at one shape: 2^48 (256 TiB), far above any device
# memory and far below where size arithmetic in int64 could overflow.
set_property(GLOBAL PROPERTY _KERNEL_OPT_MAX_TENSOR_BYTES 281474976710656)

# Words a name that becomes a C++ identifier (DIMS, ARGS, PARAMS, the
# macros of switchable METHODS) must not be: C++ keywords and alternative
# tokens, and the macros GCC and Clang predefine in their GNU modes (CMake's
# default dialect).
set_property(GLOBAL PROPERTY _KERNEL_OPT_CXX_RESERVED
  alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
  char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
  co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
  extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
  nullptr operator or or_eq private protected public register reinterpret_cast requires return
  short signed sizeof static static_assert static_cast struct switch template this thread_local
  throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
  xor xor_eq
  linux unix i386)

# _kernel_opt_cxx_name(<fn> <kernel> <what> <name> [KEY <k> <v>]...): <name>
# (KEY values without ';') must be an identifier that generated C++ can use as it is: not a keyword,
# not a predefined macro, not reserved by the standard (__x, _X).
function(_kernel_opt_cxx_name fn kernel what name)
  _kernel_opt_check_identifier(${fn} "${kernel}" "${what}" "${name}")
  get_property(reserved GLOBAL PROPERTY _KERNEL_OPT_CXX_RESERVED)
  set(why "")
  if(name IN_LIST reserved)
    set(why "a C++ keyword or a macro the compilers predefine")
  elseif(name MATCHES "^(__|_[A-Z])")
    set(why "reserved by the C++ standard (it begins with __ or with _ and a capital letter)")
  endif()
  if(NOT why STREQUAL "")
    _kernel_opt_fail(${fn} "${kernel}" "${what} '${name}' is ${why}" ${ARGN}
      HINT "it becomes an identifier in generated C++: choose another name")
  endif()
endfunction()

# _kernel_opt_check_name(<fn> <kernel> <what> <name>): a C identifier of at
# most _KERNEL_OPT_MAX_NAME_LENGTH characters.
function(_kernel_opt_check_name fn kernel what name)
  _kernel_opt_check_identifier(${fn} "${kernel}" "${what}" "${name}")
  # Generated targets are <kernel>_kopt_<impl> (and <kernel>_ablate_kopt_*):
  # a name with 'kopt' as a word could make two of them one.
  if(name MATCHES "(^|_)kopt(_|$)")
    _kernel_opt_fail(${fn} "${kernel}" "${what} '${name}' has 'kopt' as a word"
      HINT "generated targets are <kernel>_kopt_<implementation>: a name with _kopt_ in it can collide with them")
  endif()
  get_property(limit GLOBAL PROPERTY _KERNEL_OPT_MAX_NAME_LENGTH)
  string(LENGTH "${name}" length)
  if(length GREATER limit)
    _kernel_opt_fail(${fn} "${kernel}" "${what} is ${length} characters long, more than ${limit}"
      KEY "${what}" "${name}"
      HINT "names become directories, files, targets and tests: keep them at most ${limit} characters")
  endif()
endfunction()

# _kernel_opt_check_sizes(<fn> <kernel> <keyword> <dims> <arg_names> <shapes>):
# at every shape of <shapes> (normalized "d=v,..."), every ARGS axis must be
# a non-negative integer and every tensor's bytes (the product of its axes
# times its element size) at most _KERNEL_OPT_MAX_TENSOR_BYTES, computed
# without overflowing int64. Axes that are not integer expressions (n/3,
# sqrt(n)) are left to the harness, which checks them at run time.
function(_kernel_opt_check_sizes fn kernel keyword dims arg_names shapes)
  get_property(limit GLOBAL PROPERTY _KERNEL_OPT_MAX_TENSOR_BYTES)
  set(element_sizes f64=8 f32=4 f16=2 bf16=2 i32=4 i64=8 u8=1)
  foreach(shape IN LISTS shapes)
    string(REPLACE "," ";" bindings "${shape}")
    foreach(name IN LISTS arg_names)
      get_property(arg GLOBAL PROPERTY _KERNEL_OPT_K_${kernel}_ARG_${name})
      list(POP_FRONT arg direction dtype)
      list(JOIN arg "," axes_text)
      set(spec "${direction} ${name} ${dtype}[${axes_text}]")
      foreach(entry IN LISTS element_sizes)
        if(entry MATCHES "^${dtype}=(.*)$")
          set(bytes "${CMAKE_MATCH_1}")
        endif()
      endforeach()
      foreach(axis IN LISTS arg)
        _kernel_opt_eval_int64(extent "${axis}" ${bindings})
        if(extent STREQUAL "")
          set(bytes "")  # not an integer expression: checked at run time
          break()
        elseif(extent STREQUAL "overflow")
          _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\": axis \"${axis}\" overflows int64 at ${keyword} entry \"${shape}\""
            KEY ARGS "${spec}" KEY ${keyword} "${shape}"
            HINT "a tensor holds at most ${limit} bytes")
        elseif(extent STREQUAL "division by zero")
          _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\": axis \"${axis}\" divides by zero at ${keyword} entry \"${shape}\""
            KEY ARGS "${spec}" KEY ${keyword} "${shape}")
        elseif(extent MATCHES "^-")
          _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\": axis \"${axis}\" is ${extent} at ${keyword} entry \"${shape}\""
            KEY ARGS "${spec}" KEY ${keyword} "${shape}"
            HINT "an axis must be a non-negative integer at every shape")
        endif()
        _kernel_opt_int64_op(bytes * ${bytes} ${extent})
        if(bytes STREQUAL "overflow")
          _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\": the tensor's size overflows int64 at ${keyword} entry \"${shape}\""
            KEY ARGS "${spec}" KEY ${keyword} "${shape}"
            HINT "a tensor holds at most ${limit} bytes (2^48)")
        endif()
      endforeach()
      if(NOT bytes STREQUAL "")
        _kernel_opt_int64_le(fits ${bytes} ${limit})
        if(NOT fits)
          _kernel_opt_fail(${fn} ${kernel} "ARGS entry \"${spec}\" is ${bytes} bytes at ${keyword} entry \"${shape}\", more than ${limit}"
            KEY ARGS "${spec}" KEY ${keyword} "${shape}"
            HINT "a tensor holds at most ${limit} bytes (2^48)")
        endif()
      endif()
    endforeach()
  endforeach()
endfunction()
