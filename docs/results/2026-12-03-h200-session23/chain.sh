#!/usr/bin/env bash
# Session 23's GPU chain (run from the repository root as `bash chain.sh one`,
# then `bash chain.sh two`, one device call each): build, faults + compute-sanitizer (issue 20 item 9),
# gemm v10_p23 under ncu (issue 14), adversarial.cuda_pair / adversarial.cuda
# and a gemm optimize with per-implementation blocks.
set -uo pipefail
cd "$(dirname "$0")"
B=build-gpu; R=$B/s23; mkdir -p "$R"
stamp() { echo "[$(date -u +%H:%M:%S)] $*" >> "$R/progress.txt"; }
stamp "chain start $*"
if [[ $1 == one ]]; then
nvidia-smi > "$R/nvidia-smi.txt" 2>&1
nvidia-smi --query-gpu=index,name,uuid,driver_version,pstate,clocks.sm,clocks.max.sm --format=csv > "$R/device.txt" 2>&1
ps -eo pid,pcpu,etime,comm --sort=-pcpu | head -15 > "$R/ps-before.txt"
source tools/gpu/deps.sh unpack > "$R/deps.txt" 2>&1
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DKernelOpt_BENCH_TESTS=ON \
  -DKernelOpt_EXAMPLE_GEMM_CLUSTER=ON > "$R/configure.log" 2>&1
stamp "configure rc $?"
cmake --build $B -j 16 > "$R/build.log" 2>&1
stamp "build rc $?"
tail -3 "$R/build.log" > "$R/build-tail.txt"
tools/gpu/faults_and_sanitizer.sh $B "$R/fs" > "$R/fs.stdout" 2>&1
stamp "faults_and_sanitizer rc $?"
K=$B/framework/src/kopt/kopt
M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
BENCH=$(jq -r .executables.bench "$M")
mkdir -p "$R/ncu"
$K sweep --manifest "$M" --variant v10 --point v10_p23 --jobs 16 > "$R/ncu/sweep-p23.log" 2>&1
stamp "sweep v10_p23 rc $?"
for impl in v10_p23 cublas; do
  ncu --clock-control none --profile-from-start off --set full --import-source yes \
    --export "$R/ncu/$impl" --force-overwrite \
    "$BENCH" --kopt_profile "--benchmark_filter=^gemm/$impl/M=2000,N=3000,K=1000(/|\$)" > "$R/ncu/$impl.run.log" 2>&1
  stamp "ncu $impl rc $?"
  ncu --import "$R/ncu/$impl.ncu-rep" --page details > "$R/ncu/$impl.details.txt" 2>&1
  ncu --import "$R/ncu/$impl.ncu-rep" --page raw --csv > "$R/ncu/$impl.raw.csv" 2>&1
done
fi
if [[ $1 == two ]]; then
K=$B/framework/src/kopt/kopt
M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
for t in cuda_pair cuda; do
  s=$SECONDS
  ctest --test-dir $B -R "^adversarial\.$t\$" --output-on-failure > "$R/adversarial.$t.log" 2>&1
  stamp "adversarial.$t rc $? in $((SECONDS - s)) s"
  find $B -name "adversarial.$t.md" -exec cp {} "$R/" \;
done
s=$SECONDS
/usr/bin/time -v $K optimize --manifest "$M" --variant v8 --no-profile > "$R/optimize.gemm.v8.log" 2>&1
stamp "optimize gemm v8 rc $? in $((SECONDS - s)) s"
cp -r example_kernels/gemm/records/gemm "$R/records-after" 2>/dev/null
ps -eo pid,pcpu,etime,comm --sort=-pcpu | head -15 > "$R/ps-at-the-end.txt"
fi
stamp "chain done $*"
