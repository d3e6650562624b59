# KernelOpt_SANITIZE (the asan preset): every C++ translation unit of this
# build -- framework, kopt, the tests, the examples' host code and generated
# mains -- with AddressSanitizer (LeakSanitizer included) and
# UndefinedBehaviorSanitizer; a UB finding ends the process instead of being
# printed and passed over; -g1 (line tables) for file:line in the reports;
# -Og, not the build type's -O3: with the instrumentation, -O3 made the
# sanitized build ~4x as slow to compile as the plain one (99 s against
# 24 s for the heaviest file, kopt/cli/parser.cpp, on the 2-core CI
# machine) and -Og takes 24 s, so the sanitized pass fits CI's time. Files nvcc
# compiles (.cu: device code and its host stubs) are not instrumented. Every
# executable links the sanitizer runtimes: CMake links CUDA executables with
# the host compiler too (CMAKE_CUDA_HOST_LINK_LAUNCHER), so one flag serves.
# The flags are for host links only ($<HOST_LINK:>): nvcc's device-link step
# of a -rdc=true target would hand "-fsanitize=address,undefined" to the host
# compiler through -Xcompiler, which splits it at the comma and reads
# "undefined" as a second input file.
if(NOT KernelOpt_SANITIZE)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  message(FATAL_ERROR "KernelOpt_SANITIZE needs GCC or Clang (-fsanitize=address,undefined), got ${CMAKE_CXX_COMPILER_ID}")
endif()
# One generator expression per flag: a ';' inside one would split it where
# CMake handles options one by one.
set(_kopt_sanitize_link "$<HOST_LINK:-fsanitize=address>" "$<HOST_LINK:-fsanitize=undefined>")
foreach(_kopt_flag IN ITEMS -fsanitize=address,undefined -fno-omit-frame-pointer
                            -fno-sanitize-recover=undefined -Og -g1)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${_kopt_flag}>")
  # Not the variants' own: left out of their build context (Manifest.cmake).
  set_property(GLOBAL APPEND PROPERTY _KERNEL_OPT_OWN_COMPILE_OPTIONS "$<$<COMPILE_LANGUAGE:CXX>:${_kopt_flag}>")
endforeach()
add_link_options(${_kopt_sanitize_link})
# What links an installed, sanitized KernelOpt needs the runtimes too
# (tests/install): carried by KernelOpt::headers, which every library uses.
set_property(GLOBAL PROPERTY _KERNEL_OPT_SANITIZE_LINK "${_kopt_sanitize_link}")
unset(_kopt_sanitize_link)
unset(_kopt_flag)
