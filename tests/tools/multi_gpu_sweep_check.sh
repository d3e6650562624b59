#!/usr/bin/env bash
# tools/gpu/multi_gpu_sweep.sh on the host family that sweep.host_family
# built (12 points, 2 of which do not compile and 2 are incorrect): every
# step runs and reports, on a machine without a GPU. What it measures is
# checked on a GPU machine (docs/multi-gpu.md); here, that it measures.
set -uo pipefail
script=$1; family_build=$2; kopt=$3; out=$4
fail() { echo "FAIL: $*"; [[ -f $out/summary.txt ]] && cat "$out/summary.txt"; exit 1; }
if [[ ! -f $family_build/kernelopt/sweep_mm/manifest.json ]]; then
  echo "no $family_build: sweep.host_family has not run"; exit 77
fi
rm -rf "$out"
FAMILY=sweep_mm:v1 KOPT=$kopt SPEC='' JOBS=2 bash "$script" "$family_build" "$out" > "$out.log" 2>&1 ||
  fail "exit $?: $(tail -5 "$out.log")"
s=$out/summary.txt
grep -q '^family sweep_mm/v1: 12 points' "$s" || fail "no family line"
grep -qE '^build: exit 0, .*\(build only\): 10 built, 2 failed' "$s" || fail "the build-only step"
for run in one-gpu all-gpus; do
  grep -qE "^$run: ctest exit 0, wall [0-9.]+ s" "$s" || fail "$run: ctest"
  grep -q "^$run: select exit 0" "$s" || fail "$run: select"
  grep -q "^$run: kopt overlap exit" "$s" || fail "$run: overlap"
  [[ $(jq .points "$out/$run-stages.json") == 12 ]] || fail "$run: stages of 12 points"
  # Two shapes of the 8 usable points: phases of 16 shape runs, timing in each.
  jq -e '.timing > 0 and .inputs > 0 and .checks > 0 and .fresh_inputs > 0' "$out/$run-phases.json" > /dev/null ||
    fail "$run: phases $(cat "$out/$run-phases.json")"
  [[ $(find "$out/$run-sweep" -name 'v1_p*.bench.json' | wc -l) == 8 ]] || fail "$run: 8 benchmark JSON (the usable points)"
done
grep -qE '^champions: [0-2] of 2 shapes agree' "$s" || fail "the champions' comparison"
grep -qE '^sweep speedup, all GPUs over one: [0-9.]+x' "$s" || fail "the ratio"
echo "multi_gpu_sweep.sh ran end to end"
