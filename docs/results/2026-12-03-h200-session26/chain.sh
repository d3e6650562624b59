#!/usr/bin/env bash
# Session 26's GPU chain (run from the repository root of the device's copy), two calls on one warm machine:
#   a: build kopt + gemm's executables; the whole v10 family swept (30 points), selected, the dispatch
#      built, `kopt optimize --variant v10 --no-profile` records and gates it; the records are kept
#      in the build folder too, in case the next call's copy of the working tree drops them
#   b: `kopt ablate --variant v10 --repetitions 3`: each of v10's three switchable methods off in its
#      per-shape champions, correctness on every shape and seed, timed against the champions
#   c: compute-sanitizer memcheck and racecheck on v10_p17, the new champion at 8192x1024x4096
#      (session 25's phase i checked p5, p19, p25 and p23), --kopt_quick as there
set -uo pipefail
B=build-gpu; R=$B/s26; mkdir -p "$R"
stamp() { echo "[$(date -u +%H:%M:%S)] $*" >> "$R/progress.txt"; }
K=$B/framework/src/kopt/kopt; REC=example_kernels/gemm/records/gemm
stamp "start $1"
if [[ ! -f $B/build.ninja ]]; then
  nvidia-smi --query-gpu=index,name,uuid,driver_version,pstate,clocks.sm,clocks.max.sm --format=csv > "$R/device-$1.txt" 2>&1
  source tools/gpu/deps.sh unpack > "$R/deps.txt" 2>&1
  cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DKernelOpt_BENCH_TESTS=ON \
    -DKernelOpt_EXAMPLE_GEMM_CLUSTER=ON > "$R/configure.log" 2>&1; stamp "configure rc $?"
fi
if [[ $1 == a ]]; then
  cmake --build $B -j 16 --target kopt gemm_kopt_test gemm_kopt_bench > "$R/build-a.log" 2>&1; stamp "build rc $?"
  M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
  $K sweep --manifest "$M" --variant v10 --jobs 16 > "$R/sweep.log" 2>&1; stamp "sweep rc $?"
  $K select --manifest "$M" --variant v10 > "$R/select.log" 2>&1; stamp "select rc $?"
  # the selection makes the next build configure again and add the dispatch (gemm_kopt_v10)
  cmake --build $B -j 16 --target gemm_kopt_test gemm_kopt_bench > "$R/build-dispatch.log" 2>&1
  cmake --build $B -j 16 --target gemm_kopt_v10 >> "$R/build-dispatch.log" 2>&1; stamp "build dispatch rc $?"
  M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
  timeout 150 $K optimize --manifest "$M" --variant v10 --no-profile > "$R/optimize.log" 2>&1; stamp "optimize rc $?"
  mkdir -p "$R/keep"; cp $REC/v10.json $REC/v10.selection.json "$R/keep/" 2>/dev/null
  mkdir -p "$R/sweep"; cp "$(dirname "$M")"/sweep/v10/*.json "$R/sweep/" 2>/dev/null
fi
if [[ $1 == b ]]; then
  for f in v10.json v10.selection.json; do
    [[ -f $REC/$f ]] || { cp "$R/keep/$f" "$REC/$f" && stamp "restored $f"; }
  done
  M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
  left=$(( ${DEADLINE:-560} - SECONDS )); stamp "ablate gets $left s"
  timeout $left $K ablate --manifest "$M" --variant v10 --repetitions 3 > "$R/ablate.log" 2>&1
  stamp "ablate rc $?"
fi
if [[ $1 == c ]]; then
  cmake --build $B -j 16 --target gemm_kopt_test gemm_kopt_v10_p17 > "$R/build-c.log" 2>&1; stamp "build rc $?"
  T=$(jq -r .executables.test "$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)")
  for tool in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $tool "$T" --kopt_quick '--gtest_filter=v10_p17.*' > "$R/$tool.txt" 2>&1
    stamp "$tool rc $?"; tail -1 "$R/$tool.txt" >> "$R/progress.txt"
  done
fi
[[ $1 == c ]] || cp $REC/v10.json $REC/v10.selection.json "$R/" 2>/dev/null
[[ $1 == c ]] || { mkdir -p "$R/report"; cp $REC/report/v10.* "$R/report/" 2>/dev/null; }
stamp "done $1"
tar -C $B -czf "$OUT/s26-$1.tgz" s26
