cmake_minimum_required(VERSION 3.25)
# Plays an agent through KernelOpt's loop (tests/agent/CMakeLists.txt).
# The prepared variants, in the order the agent declares them: name, source
# (${KERNELS}/: the host_matmul example; prepared/: this test's), entry,
# method, hypothesis (no ';' in a field). v2 and v3 bring a column walk of B
# back: the gate rejects both, and two rejections in a row are stagnation,
# so v4 is never declared.
set(prepared
  "v1|\${KERNELS}/v1_ikj.cpp|host_matmul_v1|loop_interchange|i-k-j order: contiguous, vectorizable inner loop, expect ~5x faster"
  "v2|prepared/v2_register_sum.cpp|matmul_v2|register_blocking|the inner product in a register: expect 10% faster"
  "v3|prepared/v3_column_walk.cpp|matmul_v3|loop_interchange|a column of C at a time: expect 5% faster"
  "v4|\${KERNELS}/v2_blocked.cpp|host_matmul_v2|cache_blocking|cache blocking: expect ~1.5x faster")
set(expected_decisions "v0=ACCEPT;v1=ACCEPT;v2=REJECT;v3=REJECT")
set(expected_stop "stagnation")

set(kopt "${PREFIX}/bin/kopt")
set(src "${WORK_DIR}/src")
set(build "${WORK_DIR}/build")
set(manifest "${build}/kernelopt/matmul/manifest.json")
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${SOURCE_DIR}/" DESTINATION "${src}")
file(WRITE "${src}/variants.cmake"
  "kernel_opt_add_variant(matmul v0 SOURCES \${KERNELS}/v0_naive.cpp ENTRY host_matmul_v0)\n")

# The skill file is installed where agents look for it, with its front matter.
set(skill "${PREFIX}/share/kernelopt/agent/SKILL.md")
if(NOT EXISTS "${skill}")
  message(FATAL_ERROR "not installed: ${skill}")
endif()
file(READ "${skill}" text)
if(NOT text MATCHES "^---\nname: kernelopt\ndescription: [^\n]+\n---\n")
  message(FATAL_ERROR "${skill}: no front matter with name and description")
endif()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(code "${code}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(check_kind json kind)
  string(JSON got ERROR_VARIABLE bad GET "${json}" kind)
  string(JSON version ERROR_VARIABLE bad2 GET "${json}" schema_version)
  if(bad OR bad2 OR NOT got STREQUAL kind OR NOT version EQUAL 1)
    message(FATAL_ERROR "expected a ${kind} document of schema_version 1, got:\n${json}")
  endif()
endfunction()

set(configure "${CMAKE_COMMAND}" -S "${src}" -B "${build}" -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${PREFIX}"
    "-DKERNELS=${KERNELS}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_BUILD_TYPE=Release")
if(LAUNCHER)
  list(APPEND configure "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
endif()
run(${configure})
if(NOT code EQUAL 0)
  message(FATAL_ERROR "configure failed:\n${out}\n${err}")
endif()

set(decisions "")
set(stop_reason "")
foreach(turn RANGE 1 8)
  # 1. Stop or continue?
  run("${kopt}" status --manifest "${manifest}" --json)
  if(NOT code EQUAL 0 AND NOT code EQUAL 1)
    message(FATAL_ERROR "kopt status: exit ${code}\n${out}\n${err}")
  endif()
  check_kind("${out}" kernelopt.status)
  string(JSON decision GET "${out}" decision)
  string(JSON next_variant GET "${out}" next_variant)
  string(JSON next_step GET "${out}" next_step)
  message(STATUS "turn ${turn}: status ${decision} (exit ${code}); next: ${next_step}")
  if(code EQUAL 1)
    if(NOT decision STREQUAL "stop")
      message(FATAL_ERROR "kopt status exited 1 but says ${decision}")
    endif()
    string(JSON stop_reason GET "${out}" stop_reason)
    break()
  endif()
  if(NOT decision STREQUAL "continue")
    message(FATAL_ERROR "kopt status exited 0 but says ${decision}")
  endif()

  # 2. What to try, from past outcomes.
  run("${kopt}" recommend --kernel matmul --manifest "${manifest}" --json)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "kopt recommend: exit ${code}\n${out}\n${err}")
  endif()
  check_kind("${out}" kernelopt.recommend)
  string(JSON n LENGTH "${out}" recommendations)
  message(STATUS "  recommend: ${n} methods ranked")

  # 3. Declare the next prepared variant when every declared one has a record.
  if(next_variant STREQUAL "" OR next_variant STREQUAL "null")
    if(NOT prepared)
      message(FATAL_ERROR "status says continue, but no prepared variant is left")
    endif()
    list(POP_FRONT prepared line)
    string(REPLACE "|" ";" fields "${line}")
    list(GET fields 0 name)
    list(GET fields 1 source)
    list(GET fields 2 entry)
    list(GET fields 3 method)
    list(GET fields 4 hypothesis)
    run("${kopt}" status --manifest "${manifest}" --json)
    string(JSON parent GET "${out}" best)
    file(APPEND "${src}/variants.cmake"
      "kernel_opt_add_variant(matmul ${name} SOURCES ${source} ENTRY ${entry} PARENT ${parent}\n"
      "  HYPOTHESIS \"${hypothesis}\" METHODS ${method})\n")
    message(STATUS "  declared ${name} (PARENT ${parent}, METHODS ${method})")
    set(next_variant "${name}")
  endif()

  # 4. One iteration, as a person would run it.
  run("${CMAKE_COMMAND}" --build "${build}" --target optimize-matmul)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "optimize-matmul failed:\n${out}\n${err}")
  endif()
  run("${kopt}" gate --manifest "${manifest}" --variant "${next_variant}" --json)
  check_kind("${out}" kernelopt.gate)
  string(JSON recorded GET "${out}" recorded_decision)
  message(STATUS "  ${next_variant}: ${recorded}")
  list(APPEND decisions "${next_variant}=${recorded}")
endforeach()

message(STATUS "decisions: ${decisions}; stop reason: ${stop_reason}")
if(NOT decisions STREQUAL expected_decisions)
  message(FATAL_ERROR "decisions: '${decisions}', expected '${expected_decisions}'")
endif()
if(NOT stop_reason STREQUAL expected_stop)
  message(FATAL_ERROR "stop reason: '${stop_reason}', expected '${expected_stop}'")
endif()

# Every gated record went into the store; the report ends with the stop.
run("${kopt}" experience list --manifest "${manifest}" --json)
check_kind("${out}" kernelopt.experience_list)
string(JSON entries LENGTH "${out}" entries)
if(NOT entries EQUAL 4)
  message(FATAL_ERROR "the store holds ${entries} entries, expected 4:\n${out}")
endif()
file(READ "${build}/records/matmul/report/report.md" report)
foreach(regex IN ITEMS "## Stop or continue" "\\*\\*stop\\*\\*: stagnation: 2 rejections in a row \\(v2, v3\\)"
                       "\\| v1 \\| loop_interchange \\| ACCEPT \\| success \\|" "### Recommendations")
  if(NOT report MATCHES "${regex}")
    message(FATAL_ERROR "report.md lacks '${regex}':\n${report}")
  endif()
endforeach()
message(STATUS "the agent's loop stopped on ${stop_reason} after ${decisions}")
