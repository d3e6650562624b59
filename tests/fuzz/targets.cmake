# The fuzz targets (fuzz_<name>.cpp) and the seed inputs of each: the golden
# test data under tests/*/data (globs relative to the source root), plus a
# few small hand-written seeds under tests/fuzz/seeds/<name> for kinds the
# golden data lacks. Shared by tests/fuzz/CMakeLists.txt (replay and fuzz
# tests) and tests/fuzz/project (the clang build of the targets).
set(KOPT_FUZZ_TARGETS
  manifest record bench overlap correctness ceilings spec env static profile ncu_csv sass expr cli experience)

set(KOPT_FUZZ_SEEDS_manifest    tests/kopt/data/softmax/manifest.json)
set(KOPT_FUZZ_SEEDS_record      tests/kopt/data/softmax/expected/records/*.json tests/fuzz/seeds/record/*)
set(KOPT_FUZZ_SEEDS_bench       tests/kopt/data/softmax/bench/*.json tests/kopt/data/h200/softmax_bench_run_*.json
                                tests/fuzz/seeds/bench/* tests/fuzz/seeds/overlap/*)
set(KOPT_FUZZ_SEEDS_overlap     tests/kopt/data/h200/softmax_bench_run_*.json tests/fuzz/seeds/overlap/*)
set(KOPT_FUZZ_SEEDS_correctness tests/kopt/data/softmax/results/*.json tests/kopt/data/h200/softmax_correct_v1.json)
set(KOPT_FUZZ_SEEDS_ceilings    tests/kopt/data/softmax/ceilings.json tests/kopt/profile/data/h200/ceilings.json)
set(KOPT_FUZZ_SEEDS_spec        framework/specs/*.json)
set(KOPT_FUZZ_SEEDS_env         tests/kopt/data/softmax/env.json tests/fuzz/seeds/env/*)
set(KOPT_FUZZ_SEEDS_static      tests/fuzz/seeds/static/*)
set(KOPT_FUZZ_SEEDS_profile     tests/fuzz/seeds/profile/*)
set(KOPT_FUZZ_SEEDS_ncu_csv     tests/kopt/profile/data/*.csv tests/kopt/profile/data/h200/*.csv)
set(KOPT_FUZZ_SEEDS_sass        tests/static/data/*.txt)
set(KOPT_FUZZ_SEEDS_expr        tests/fuzz/seeds/expr/*)
set(KOPT_FUZZ_SEEDS_cli         tests/fuzz/seeds/cli/*)
set(KOPT_FUZZ_SEEDS_experience  tests/fuzz/seeds/experience/*)

# _kernel_opt_fuzz_seeds(<out-var> <target> <source-root>): the seed files.
function(_kernel_opt_fuzz_seeds out target root)
  set(files)
  foreach(pattern IN LISTS KOPT_FUZZ_SEEDS_${target})
    file(GLOB matched ${root}/${pattern})
    list(APPEND files ${matched})
  endforeach()
  list(SORT files)
  set(${out} ${files} PARENT_SCOPE)
endfunction()
