#!/usr/bin/env bash
# A family's sweep timed on one GPU and on every GPU of this host
# (docs/multi-gpu.md, "A sweep over several GPUs"; issue 22):
#   1. build    `kopt sweep --build-only`: every point built, timed apart
#   2. one-gpu  its points' tests (`ctest -L sweep`) with CUDA_VISIBLE_DEVICES=0
#   3. all-gpus the same tests over every GPU
# Before each run the build is brought up to date apart from its clock.
# Each run starts from no results (the builds stay) and without CTest's
# durations of the run before, and runs `kopt select` into a scratch folder
# (the records are not touched) and `kopt overlap` over its points'
# benchmark JSON. Then the champions of the two runs are compared by the
# rule of docs/multi-gpu.md: per shape the same point, or each run's
# champion on the other run's frontier (within the selection margin).
# Needs a build configured with -DKernelOpt_EXAMPLE_SCALE_FAMILY=ON (gemm
# v9, 28 points) unless FAMILY names another family.
# Usage (repository root): tools/gpu/multi_gpu_sweep.sh BUILD_DIR OUT_DIR
# Environment (defaults): FAMILY (gemm:v9), JOBS (16), RUNS ("one-gpu all-gpus"),
#   KOPT (BUILD_DIR/framework/src/kopt/kopt), SPEC (generated: the build is
#   configured again with this KernelOpt_RESOURCE_SPEC; empty: left as it is).
set -uo pipefail
build=$(cd "$1" && pwd); out=$2
mkdir -p "$out"; out=$(cd "$out" && pwd)
family=${FAMILY:-gemm:v9}; kernel=${family%%:*}; variant=${family##*:}
jobs=${JOBS:-16}; runs=${RUNS:-one-gpu all-gpus}
kopt=${KOPT:-$build/framework/src/kopt/kopt}
manifest=$(find "$build" -path "*/kernelopt/$kernel/manifest.json" -print -quit)
[[ -n $manifest ]] || { echo "multi_gpu_sweep: no manifest of $kernel under $build" >&2; exit 2; }
sweep_dir=$(jq -r --arg v "$variant" '.variants[] | select(.name == $v) | .family.sweep_dir' "$manifest")
[[ -n $sweep_dir && $sweep_dir != null ]] || { echo "multi_gpu_sweep: $kernel has no family $variant (configure with -DKernelOpt_EXAMPLE_SCALE_FAMILY=ON?)" >&2; exit 2; }
points=$(jq -r --arg v "$variant" '.variants[] | select(.name == $v) | .family.points | length' "$manifest")
summary=$out/summary.txt
now() { date +%s.%N; }
since() { awk "BEGIN{printf \"%.1f\", $(now) - $1}"; }
nvidia-smi --query-gpu=index,name,uuid,driver_version,pstate,clocks.sm,clocks.max.sm --format=csv > "$out/devices.txt" 2>&1
spec=${SPEC-generated}
[[ -z $spec ]] || cmake "$build" -DKernelOpt_RESOURCE_SPEC="$spec" > /dev/null
echo "family $kernel/$variant: $points points; GPUs: $(nvidia-smi -L 2>/dev/null | wc -l); ctest -j $jobs" | tee "$summary"

# 1. The build, apart from the timing (from no results: finished points
# would be up to date and not looked at).
rm -rf "$sweep_dir"
t0=$(now)
"$kopt" sweep --manifest "$manifest" --variant "$variant" --build-only --jobs "$(nproc)" > "$out/build.log" 2>&1
echo "build: exit $?, $(since "$t0") s ($(tail -1 "$out/build.log"))" | tee -a "$summary"

# 2, 3. The points' tests, on one GPU and on all.
declare -A wall
for run in $runs; do
  envs=(KOPT_UNUSED=1)
  [[ $run == one-gpu ]] && envs=(CUDA_VISIBLE_DEVICES=0)
  rm -rf "$sweep_dir"
  rm -f "$build/Testing/Temporary/CTestCostData.txt"
  # Up to date before the clock starts: the run before's `kopt select`
  # changes the selection, so the next build configures again (3-5 s that
  # the first points' build steps would otherwise pay, GPUs idle).
  t0=$(now)
  "$kopt" sweep --manifest "$manifest" --variant "$variant" --build-only --jobs "$(nproc)" > "$out/$run-build.log" 2>&1
  echo "$run: build before the run (apart): exit $?, $(since "$t0") s" | tee -a "$summary"
  rm -rf "$sweep_dir"
  t0=$(now)
  env "${envs[@]}" ctest --test-dir "$build" -j "$jobs" -L sweep -R "^$kernel\\.sweep\\.${variant}_p[0-9]+\$" \
    > "$out/$run-ctest.log" 2>&1
  status=$?
  wall[$run]=$(since "$t0")
  echo "$run: ctest exit $status, wall ${wall[$run]} s" | tee -a "$summary"
  rm -rf "$out/$run-sweep"; cp -r "$sweep_dir" "$out/$run-sweep"
  # Where the time went, from the points' own results: the build step (a
  # no-op after step 1, under the build tree's lock), correctness, benchmark.
  jq -s '{points: length, build_s: (map(.build.elapsed_s) | add), correctness_s: (map(.correctness.elapsed_s) | add),
          bench_s: (map(.bench.elapsed_s) | add)}' "$out/$run-sweep"/"${variant}"_p*[0-9].json > "$out/$run-stages.json"
  echo "$run: stages $(jq -c . "$out/$run-stages.json")" | tee -a "$summary"
  # Inside the benchmarks: each shape's phases (kopt.phases_s, shared by the
  # shape's rows), summed over the points.
  jq -s '[.[] | [.benchmarks[] | select(.kopt.phases_s) | {shape: .kopt.shape, p: .kopt.phases_s}]
          | unique_by(.shape)[] | .p] | {inputs: (map(.inputs) | add), checks: (map(.checks) | add),
          timing: (map(.timing) | add), fresh_inputs: (map(.fresh_inputs) | add)}' \
    "$out/$run-sweep"/*.bench.json > "$out/$run-phases.json"
  echo "$run: benchmark phases $(jq -c . "$out/$run-phases.json")" | tee -a "$summary"
  "$kopt" select --manifest "$manifest" --variant "$variant" --sweep-dir "$out/$run-sweep" \
    --records-dir "$out/$run-records" --json > "$out/$run-selection.json" 2> "$out/$run-select.err"
  echo "$run: select exit $?" | tee -a "$summary"
  # shellcheck disable=SC2046
  "$kopt" overlap $(ls "$out/$run-sweep"/*.bench.json) > "$out/$run-overlap.txt" 2>&1
  echo "$run: kopt overlap exit $? ($(tail -1 "$out/$run-overlap.txt"))" | tee -a "$summary"
  # Which GPU each point was timed on.
  for f in "$out/$run-sweep"/*.bench.json; do
    printf '%s %s\n' "$(basename "$f" .bench.json)" "$(jq -r '.kopt.gpu | "\(.index) \(.uuid) ctest \(.ctest_allocation)"' "$f")"
  done > "$out/$run-gpus.txt"
done

# The champions of the two runs, by the documented rule.
if [[ -s $out/one-gpu-selection.json && -s $out/all-gpus-selection.json ]]; then
  python3 - "$out/one-gpu-selection.json" "$out/all-gpus-selection.json" <<'PY' | tee -a "$summary"
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
def frontier(shape):
    return {f["point"] for f in shape["frontier"]} | {shape["champion"]}
same = 0
for a, b in zip(one["shapes"], two["shapes"]):
    assert a["shape"] == b["shape"]
    if a["champion"] == b["champion"]:
        verdict = "same champion"
        same += 1
    elif a["champion"] in frontier(b) and b["champion"] in frontier(a):
        verdict = "each on the other's frontier (within the margin): equal by the rule"
        same += 1
    else:
        verdict = "DIFFERENT"
    print(f"champion {a['shape']}: one-gpu {a['champion']} {a['median_ns']:.0f} ns, "
          f"all-gpus {b['champion']} {b['median_ns']:.0f} ns: {verdict}")
print(f"champions: {same} of {len(one['shapes'])} shapes agree")
PY
fi
if [[ -n ${wall[one-gpu]:-} && -n ${wall[all-gpus]:-} ]]; then
  awk -v one="${wall[one-gpu]}" -v all="${wall[all-gpus]}" \
    'BEGIN { printf "sweep speedup, all GPUs over one: %.2fx (%s s / %s s)\n", one / all, one, all }' | tee -a "$summary"
fi
