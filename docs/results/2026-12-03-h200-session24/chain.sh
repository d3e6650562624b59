#!/usr/bin/env bash
# Session 24's GPU chain (copied into the repo root before the run; untracked).
#   one (machine 1): build; faults_and_sanitizer; cuBLAS alone under racecheck; v10 p23/p36/p37 sweep
#   a (machine 2): build; v10 p23/p36/p37 sweep; faults_and_sanitizer (now with the built v10 points)
#   b: adversarial.cuda (its optimize v8 stopped at once: the record exists; c does it)
#   c: optimize gemm v8 (the gate benchmark's wall) on a copy without v8's record
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
  cmake --build $B -j 16 > "$R/build.log" 2>&1; stamp "build rc $?"
fi
M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
if [[ $1 == one ]]; then
  tools/gpu/faults_and_sanitizer.sh $B "$R/fs" > "$R/fs.stdout" 2>&1; stamp "fs rc $?"
  # cuBLAS alone under racecheck: were session 23's 3 hazards in it?
  T=$(jq -r .executables.test "$M")
  timeout 180 compute-sanitizer --tool racecheck --error-exitcode 9 "$T" --kopt_quick '--gtest_filter=cublas.*' \
    > "$R/racecheck-cublas.txt" 2>&1; stamp "racecheck cublas rc $?"
  $K sweep --manifest "$M" --variant v10 --point v10_p23 --point v10_p36 --point v10_p37 --jobs 16 > "$R/sweep.log" 2>&1
  stamp "sweep rc $?"; cp -r "$(dirname "$M")/sweep/v10" "$R/sweep-v10" 2>/dev/null
fi
if [[ $1 == a ]]; then
  $K sweep --manifest "$M" --variant v10 --point v10_p23 --point v10_p36 --point v10_p37 --jobs 16 > "$R/sweep-a.log" 2>&1
  stamp "sweep rc $?"
  tools/gpu/faults_and_sanitizer.sh $B "$R/fs-a" > "$R/fs-a.stdout" 2>&1; stamp "fs rc $?"
fi
if [[ $1 == c ]]; then
  # records are never rewritten: this copy of the tree (the device's) drops v8's committed record first
  rm -f example_kernels/gemm/records/gemm/v8.json
  s=$SECONDS; timeout 400 /usr/bin/time -v $K optimize --manifest "$M" --variant v8 --no-profile > "$R/optimize.v8.log" 2>&1
  stamp "optimize v8 rc $? in $((SECONDS - s)) s"; cp example_kernels/gemm/records/gemm/v8.json "$R/v8.record.json"
  cp "$(dirname "$M")"/*.bench.json "$R/" 2>/dev/null; ls -la "$(dirname "$M")" > "$R/kernelopt-dir.txt"
fi
if [[ $1 == b ]]; then
  s=$SECONDS; ctest --test-dir $B -R '^adversarial\.cuda$' --output-on-failure > "$R/adversarial.cuda.log" 2>&1
  stamp "adversarial.cuda rc $? in $((SECONDS - s)) s"; find $B -name adversarial.cuda.md -exec cp {} "$R/" \;
  s=$SECONDS; timeout 280 /usr/bin/time -v $K optimize --manifest "$M" --variant v8 --no-profile > "$R/optimize.v8.log" 2>&1
  stamp "optimize v8 rc $? in $((SECONDS - s)) s"; cp example_kernels/gemm/records/gemm/v8.json "$R/v8.record.json"
fi
stamp "done $1"
tar -C $B -czf "$OUT/s24-$1.tgz" s24
