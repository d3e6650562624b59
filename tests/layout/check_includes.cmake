# cmake -DSOURCE_DIR=<framework/src> -P check_includes.cmake
#
# The include rules of ARCHITECTURE.md ("Who may include whom"): each unit
# (a library folder of framework/src, or a folder of kopt/; kopt/scale's
# three folders are units of their own) may include only
# the units listed for it. A quoted include "<unit>/<file>.hpp" from a file
# of another unit that is not listed fails, naming the file, its line and
# the rule. Angle-bracket includes (system, third-party) are not checked.
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED SOURCE_DIR)
  message(FATAL_ERROR "check_includes.cmake: -DSOURCE_DIR=<framework/src> missing")
endif()

# unit -> units it may include (besides itself). "kernelopt" is
# framework/include/kernelopt (the authors' and the generated code's headers).
set(allow_core      kernelopt)
set(allow_formats   core)
set(allow_harness   core formats kernelopt)
set(allow_bench     core formats harness kernelopt)
set(allow_static    core formats)
set(allow_cuda      core formats harness bench kernelopt)
set(allow_kopt/inputs  core formats)
set(allow_kopt/profile core formats static kopt/inputs)
set(allow_kopt/records core formats kopt/inputs kopt/profile)
set(allow_kopt/decide  core formats kopt/inputs kopt/profile kopt/records kopt/sweep)
set(allow_kopt/compare core formats kopt/inputs kopt/records)
set(allow_kopt/experience core formats kopt/inputs kopt/records)
set(allow_kopt/report  core formats kopt/inputs kopt/records kopt/decide kopt/experience kopt/sweep)
set(allow_kopt/run     core formats static cuda kopt/inputs kopt/records)
set(allow_kopt/sweep   core formats kopt/inputs kopt/records kopt/run)
set(allow_kopt/scale/shard core formats kopt/inputs kopt/records kopt/run kopt/sweep)
set(allow_kopt/scale/merge core formats kopt/inputs kopt/records kopt/sweep kopt/decide kopt/report kopt/scale/shard)
set(allow_kopt/scale/slurm core formats kopt/inputs kopt/scale/shard kopt/scale/merge)
set(allow_kopt/cli     core formats static cuda kopt/inputs kopt/profile kopt/records kopt/decide kopt/compare
                       kopt/report kopt/run kopt/experience kopt/sweep kopt/scale/shard kopt/scale/merge
                       kopt/scale/slurm)
set(units core formats harness bench static cuda kopt/inputs kopt/profile kopt/records kopt/decide kopt/compare
          kopt/experience kopt/report kopt/run kopt/sweep kopt/scale/shard kopt/scale/merge kopt/scale/slurm
          kopt/cli)

# The unit of a path relative to SOURCE_DIR (or of an include's path).
function(_unit_of path out)
  set(found "")
  foreach(unit IN LISTS units ITEMS kernelopt)
    string(LENGTH "${unit}/" n)
    string(SUBSTRING "${path}" 0 ${n} head)
    if(head STREQUAL "${unit}/")
      set(found ${unit})
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*.hpp ${SOURCE_DIR}/*.cpp ${SOURCE_DIR}/*.cu)
set(violations "")
set(unknown "")
foreach(file IN LISTS files)
  _unit_of("${file}" unit)
  if(unit STREQUAL "")
    list(APPEND unknown "${file}")
    continue()
  endif()
  file(STRINGS ${SOURCE_DIR}/${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]*)\".*" "\\1" included "${line}")
    if(NOT included MATCHES "/")
      continue()  # a file beside it
    endif()
    _unit_of("${included}" target)
    if(target STREQUAL "" OR target STREQUAL unit)
      continue()
    endif()
    if(NOT target IN_LIST allow_${unit})
      list(APPEND violations "${file}: includes \"${included}\": ${unit} may include only ${allow_${unit}}")
    endif()
  endforeach()
endforeach()

if(unknown)
  list(JOIN unknown "\n  " text)
  message(FATAL_ERROR "check_includes: files in no unit (add the folder to tests/layout/check_includes.cmake "
                      "and ARCHITECTURE.md):\n  ${text}")
endif()
if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "check_includes: include rules broken (ARCHITECTURE.md, \"Who may include whom\"):\n  ${text}")
endif()
list(LENGTH files n)
message(STATUS "check_includes: ${n} files follow the include rules")
