#!/usr/bin/env bash
# Session 24's GPU chain, part 2 (copied into the repo root before the run; untracked).
#   d: build kopt + gemm's executables; sweep v10 p5, p23 and the CLUSTER_N=2 points p52, p53, p70, p71;
#      memcheck and racecheck on the CLUSTER_N=2 points (quick shapes)
set -uo pipefail
cd "$(dirname "$0")"
B=build-gpu; R=$B/s24; mkdir -p "$R"
stamp() { echo "[$(date -u +%H:%M:%S)] $*" >> "$R/progress.txt"; }
K=$B/framework/src/kopt/kopt
stamp "start $1"
if [[ ! -f $B/build.ninja ]]; then
  nvidia-smi --query-gpu=index,name,uuid,driver_version,pstate,clocks.sm,clocks.max.sm --format=csv > "$R/device-$1.txt" 2>&1
  source tools/gpu/deps.sh unpack > "$R/deps.txt" 2>&1
  cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DKernelOpt_BENCH_TESTS=ON \
    -DKernelOpt_EXAMPLE_GEMM_CLUSTER=ON > "$R/configure.log" 2>&1; stamp "configure rc $?"
fi
M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
if [[ $1 == d ]]; then
  cmake --build $B -j 16 --target kopt gemm_kopt_test gemm_kopt_bench > "$R/build-d.log" 2>&1; stamp "build rc $?"
  M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
  $K sweep --manifest "$M" --variant v10 --point v10_p52 --point v10_p53 --point v10_p70 --point v10_p71 \
    --point v10_p23 --point v10_p5 --jobs 16 > "$R/sweep-d.log" 2>&1
  stamp "sweep rc $?"; mkdir -p "$R/sweep-d"; cp "$(dirname "$M")"/sweep/v10/*.json "$R/sweep-d/" 2>/dev/null
  T=$(jq -r .executables.test "$M")
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 "$T" --kopt_quick \
      '--gtest_filter=v10_p52.*:v10_p53.*:v10_p70.*:v10_p71.*' > "$R/$tool-d.txt" 2>&1
    stamp "$tool rc $?"
  done
fi
stamp "done $1"
tar -C $B -czf "$OUT/s24-$1.tgz" s24
