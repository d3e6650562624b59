# adversarial_tests(<name> <suite kernel> <pair kernel> LABELS <labels>
#   [CHEATS_TEST] [OPTIMIZE_ARGS <arg>...] EXPECT <entry>...)
# Registers adversarial.<name> (run_suite.cmake over <suite kernel>, EXPECT
# as "variant:DECISION[:rule|rule]", the controls identical, nondet and
# honest gated 5 more times) and adversarial.<name>_pair (run_pair.cmake over
# <pair kernel>: slow5, same, better5, 20 times). Both time the machine:
# RUN_SERIAL, and the kernels' generated perf tests are disabled (they would
# time against the records these tests make).
# CHEATS_TEST: both are labelled `unsanitized` (their ACCEPTs are speed
# verdicts, which a sanitizer's checks spread apart), and
# adversarial.<name>_cheats runs the root and every entry expected REJECT
# under the sanitizers: hostile code through kopt optimize and the
# benchmark, no verdict that needs a quiet clock.
function(adversarial_tests name suite pair)
  cmake_parse_arguments(PARSE_ARGV 3 arg
    "CHEATS_TEST"
    "LABELS"
    "OPTIMIZE_ARGS;EXPECT")
  set(common -DKOPT=$<TARGET_FILE:KernelOpt::kopt> -DRECORDS=${CMAKE_CURRENT_BINARY_DIR}/records
             "-DOPTIMIZE_ARGS=${arg_OPTIMIZE_ARGS}")
  set(scripts ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  add_test(NAME adversarial.${name}
    COMMAND ${CMAKE_COMMAND} ${common}
      -DMANIFEST=${CMAKE_CURRENT_BINARY_DIR}/kernelopt/${suite}/manifest.json
      "-DEXPECT=${arg_EXPECT}"
      -DREPEAT_CONTROLS=5 "-DCONTROLS=identical;nondet;honest"
      -DLOG=${CMAKE_CURRENT_BINARY_DIR}/adversarial.${name}.md
      -P ${scripts}/run_suite.cmake)
  add_test(NAME adversarial.${name}_pair
    COMMAND ${CMAKE_COMMAND} ${common}
      -DMANIFEST=${CMAKE_CURRENT_BINARY_DIR}/kernelopt/${pair}/manifest.json
      -DREPEAT=20 -DROOT=slow5 -DSAME=same -DBETTER=better5
      -DLOG=${CMAKE_CURRENT_BINARY_DIR}/adversarial.${name}_pair.md
      -P ${scripts}/run_pair.cmake)
  set_tests_properties(adversarial.${name} adversarial.${name}_pair PROPERTIES
    LABELS "${arg_LABELS}" TIMEOUT 1800 RUN_SERIAL TRUE
    SKIP_REGULAR_EXPRESSION "adversarial: SKIPPED")
  if(arg_CHEATS_TEST)
    set_property(TEST adversarial.${name} adversarial.${name}_pair APPEND PROPERTY LABELS unsanitized)
    # The root (accepted without a speed rule) and the entries expected REJECT.
    list(GET arg_EXPECT 0 cheats)
    foreach(entry IN LISTS arg_EXPECT)
      if(entry MATCHES "^[^:]+:REJECT")
        list(APPEND cheats "${entry}")
      endif()
    endforeach()
    add_test(NAME adversarial.${name}_cheats
      COMMAND ${CMAKE_COMMAND} ${common}
        -DMANIFEST=${CMAKE_CURRENT_BINARY_DIR}/kernelopt/${suite}/manifest.json
        "-DEXPECT=${cheats}"
        -DLOG=${CMAKE_CURRENT_BINARY_DIR}/adversarial.${name}_cheats.md
        -P ${scripts}/run_suite.cmake)
    set_tests_properties(adversarial.${name}_cheats PROPERTIES
      LABELS "${arg_LABELS}" TIMEOUT 1800 RUN_SERIAL TRUE
      SKIP_REGULAR_EXPRESSION "adversarial: SKIPPED")
  endif()
  # Deferred calls evaluate their arguments when they run: expand the names now.
  cmake_language(EVAL CODE
    "cmake_language(DEFER CALL set_tests_properties ${suite}.perf ${pair}.perf PROPERTIES DISABLED TRUE)")
endfunction()
