#!/usr/bin/env bash
# Calibrates `kopt compare` (docs/ci-gating.md) on a GPU machine:
#   1. RUNS+1 back-to-back runs of the same binary (calibration/base and
#      softmax/v2 at rows=8192,cols=8192): RUNS compares of consecutive runs,
#      none may be SLOWER;
#   2. RUNS compares of calibration/base against calibration/slower3 (3 %
#      more work) from back-to-back processes: every one must be SLOWER.
# Usage: tools/gpu/gate_calibration.sh BUILD_DIR OUT_DIR [RUNS=20]
set -uo pipefail
build=$1; out=$2; runs=${3:-20}
mkdir -p "$out"
kopt=$(find "$build" -type f -name kopt -perm -u+x -print -quit)
calib=$(find "$build" -type f -name calibration_kopt_bench -perm -u+x -print -quit)
softmax=$(find "$build" -type f -name softmax_kopt_bench -perm -u+x -print -quit)
for i in $(seq 0 "$runs"); do
  "$calib" --benchmark_filter='^calibration/base/' --benchmark_out="$out/base_$i.json" --benchmark_out_format=json > /dev/null 2>&1
  "$calib" --benchmark_filter='^calibration/slower3/' --benchmark_out="$out/slower3_$i.json" --benchmark_out_format=json > /dev/null 2>&1
  "$softmax" --benchmark_filter='^softmax/v2/rows=8192,cols=8192/' --benchmark_out="$out/softmax_$i.json" --benchmark_out_format=json > /dev/null 2>&1
done
{
  echo "| compare | runs | SAME | FASTER | SLOWER | UNSURE | exit codes |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  for kind in same_base same_softmax slower; do
    declare -A count=([SAME]=0 [FASTER]=0 [SLOWER]=0 [UNSURE]=0)
    codes=""
    for i in $(seq 1 "$runs"); do
      case $kind in
        same_base) a=$out/base_$((i-1)).json; b=$out/base_$i.json ;;
        same_softmax) a=$out/softmax_$((i-1)).json; b=$out/softmax_$i.json ;;
        slower) a=$out/base_$i.json; b=$out/slower3_$i.json ;;
      esac
      "$kopt" compare "$a" "$b" --format json > "$out/compare_${kind}_$i.json" 2> "$out/compare_${kind}_$i.err"
      codes+="$? "
      verdict=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['geomean']['verdict'] if 'geomean' in d else '?')" "$out/compare_${kind}_$i.json" 2>/dev/null || echo '?')
      count[$verdict]=$(( ${count[$verdict]:-0} + 1 ))
    done
    echo "| $kind | $runs | ${count[SAME]} | ${count[FASTER]} | ${count[SLOWER]} | ${count[UNSURE]} | $codes|"
  done
} | tee "$out/calibration.md"
