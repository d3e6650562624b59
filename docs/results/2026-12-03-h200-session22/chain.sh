#!/usr/bin/env bash
# Session 22's GPU chain (not committed): part 5, multi_gpu_sweep, gemm v10, adversarial.cuda(_pair).
set -uo pipefail
cd "$(dirname "$0")"
B=build-gpu; R=$B/s22; mkdir -p "$R"
stamp() { echo "[$(date -u +%H:%M:%S)] $*" >> "$R/progress.txt"; }
stamp "chain start"
nvidia-smi > "$R/nvidia-smi.txt" 2>&1
nvidia-smi --query-gpu=index,name,uuid,driver_version,pstate,clocks.sm,clocks.max.sm --format=csv > "$R/device.txt" 2>&1
ps -eo pid,pcpu,etime,comm --sort=-pcpu | head -15 > "$R/ps-before.txt"
JOBS=8 tools/gpu/whole_suite.sh $B start \
  --skip-finished docs/results/2026-12-01-h200-session15/whole-suite-part1.log \
  --skip-finished docs/results/2026-12-02-h200-session17/whole-suite-part2.log \
  --skip-finished docs/results/2026-12-02-h200-session19/whole-suite-part4.log \
  -E '^gemm\..*v10' > "$R/part5-start.txt" 2>&1
tools/gpu/whole_suite.sh $B wait 1500 > "$R/part5-wait.txt" 2>&1
stamp "part5 wait rc $?"
cp $B/whole-suite/ctest.log "$R/whole-suite-part5.log"
ctest --test-dir $B -R '^tools\.multi_gpu_sweep$' --output-on-failure > "$R/multi_gpu_sweep.log" 2>&1
stamp "multi_gpu_sweep rc $?"
mkdir -p "$R/v10"
FAMILIES=gemm:v10 tools/gpu/families.sh $B "$R/v10" sweep > "$R/v10/families.log" 2>&1
stamp "v10 families rc $?"
cp -r example_kernels/gemm/records "$R/v10/records-after" 2>/dev/null
for t in cuda cuda_pair; do
  ctest --test-dir $B -R "^adversarial\.$t\$" --output-on-failure > "$R/adversarial.$t.log" 2>&1
  stamp "adversarial.$t rc $?"
  find $B -name "adversarial.$t.md" -exec cp {} "$R/" \;
done
ps -eo pid,pcpu,etime,comm --sort=-pcpu | head -15 > "$R/ps-at-the-end.txt"
stamp "chain done"
