# The command lines of a generated benchmark and correctness test as a shell
# sees them: --help and --version exit 0, an unknown or bad --kopt_ flag
# exits 2 naming it, Google Benchmark's (GoogleTest's) flags pass through.
#   cmake -DBENCH=<host_scale_kopt_bench> -DTEST=<host_scale_kopt_test> -DVERSION=<project version>
#         -P command_line.cmake
set(failures "")
# expect(CODE REGEX [ABSENT REGEX] ARGS...): runs ${program}.
function(expect code regex)
  set(absent "")
  if(ARGV2 STREQUAL "ABSENT")
    set(absent "${ARGV3}")
    list(REMOVE_AT ARGN 0 1)
  endif()
  execute_process(COMMAND "${program}" ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT 120)
  get_filename_component(name "${program}" NAME)
  string(JOIN " " shown ${name} ${ARGN})
  if(NOT status STREQUAL "${code}")
    set(failures "${failures}\n'${shown}' exited ${status}, expected ${code}:\n${out}${err}" PARENT_SCOPE)
  elseif(NOT "${out}${err}" MATCHES "${regex}")
    set(failures "${failures}\n'${shown}' printed no match for '${regex}':\n${out}${err}" PARENT_SCOPE)
  elseif(NOT absent STREQUAL "" AND "${out}${err}" MATCHES "${absent}")
    set(failures "${failures}\n'${shown}' printed '${absent}':\n${out}${err}" PARENT_SCOPE)
  else()
    message(STATUS "ok (${status}): ${shown}")
  endif()
endfunction()

string(REPLACE "." "\\." version "${VERSION}")
set(program "${BENCH}")
set(help "--version.*--kopt_quick.*--kopt_ceilings.*--kopt_timeout.*Google Benchmark's flags.*--benchmark_filter")
expect(0 "${help}" --help)
expect(0 "${help}" -h)
expect(0 "${help}" "--benchmark_filter=^x" --kopt_quick --help)
expect(0 "^host_scale_kopt_bench \\(KernelOpt\\) ${version}\n$" --version)
expect(2 "--kopt_frobnicate: unknown KernelOpt flag \\(see --help\\)" --kopt_frobnicate)
expect(2 "--kopt_timeout=soon: expected a positive number of seconds" --kopt_timeout=soon)
# Google Benchmark's flags reach it: the filter selects, listing runs nothing.
expect(0 "host_scale/vendor_ok/" ABSENT "vendor_wrong"
       --kopt_quick "--benchmark_filter=^host_scale/vendor_ok/" --benchmark_list_tests)
expect(0 "host_scale/vendor_wrong/" ABSENT "vendor_ok" --benchmark_filter=vendor_wrong --benchmark_list_tests=true)
# One it does not know is its own error, not ours.
expect(1 "unrecognized command-line flag: --benchmark_frobnicate" --benchmark_frobnicate)
set(program "${TEST}")
set(help "--version.*--kopt_results.*--kopt_quick.*--kopt_threads.*GoogleTest's flags.*--gtest_filter")
expect(0 "${help}" --help)
expect(0 "${help}" --gtest_filter=vendor_ok.* -h)
expect(0 "^host_scale_kopt_test \\(KernelOpt\\) ${version}\n$" --version)
expect(2 "--kopt_frobnicate: unknown KernelOpt flag \\(see --help\\)" --kopt_frobnicate)
expect(2 "--kopt_threads='0': expected an integer from 1 to 4096" --kopt_threads=0)
expect(2 "--kopt_results needs a non-empty value" --kopt_results= --gtest_list_tests)
expect(0 "vendor_ok\\." ABSENT "vendor_wrong" --kopt_quick --gtest_filter=vendor_ok.* --gtest_list_tests)

if(failures)
  message(FATAL_ERROR "${failures}")
endif()
