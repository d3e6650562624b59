#!/usr/bin/env bash
# The multi-GPU evidence for docs/multi-gpu.md, on a machine with 2+ GPUs:
# the example suite's GPU tests (the tests of the CUDA example kernels
# softmax, softmax_bf16 and gemm: every KernelOpt test is labelled
# kernel-opt, so they are chosen by name) with `ctest -j`, first on every GPU, then
# restricted to one GPU, each with its resource spec generated at test time
# (KernelOpt_RESOURCE_SPEC=generated, CMake >= 3.28); then a correctness-only
# run in file mode (ctest --resource-spec-file); then the softmax benchmarks
# with no resource groups (the per-GPU claim alone keeps them apart). Per run: wall time, the
# ctest log, every result JSON (which GPU each test ran on) and
# `kopt overlap` over the benchmark JSON.
# The families' sweep tests (label sweep) are left out: a sweep over
# several GPUs is timed by tools/gpu/multi_gpu_sweep.sh.
# Usage (repository root): tools/gpu/multi_gpu.sh BUILD_DIR OUT_DIR [JOBS]
# Environment: RUNS (default "all-gpus one-gpu file-mode no-spec"), the runs to make.
set -uo pipefail
build=$1; out=$2; jobs=${3:-16}
runs=${RUNS:-all-gpus one-gpu file-mode no-spec}
want() { [[ " $runs " == *" $1 "* ]]; }
mkdir -p "$out"
kopt=$build/framework/src/kopt/kopt
nvidia-smi -L > "$out/devices.txt"
examples='^(softmax|softmax_bf16|gemm)\.'

collect() {  # collect RUN_NAME: this run's result files into $out/RUN_NAME.tar.gz
  local name=$1 list
  list=$(mktemp)
  find "$build/example_kernels" \( -path '*/results/*.json' -o -path '*/runs/*/perf.json' \) -newer "$build/.run_marker" > "$list"
  tar czf "$out/$name-results.tar.gz" -T "$list" 2>/dev/null
  # Which GPU each test process ran on, as its own JSON says.
  python3 - "$list" > "$out/$name-gpus.txt" <<'PY'
import json, sys
for path in open(sys.argv[1]).read().split():
    doc = json.load(open(path))
    k = doc.get("kopt", doc)
    gpu = k.get("gpu") or {}
    print(f"{path.split('example_kernels/')[-1]:70} gpu {gpu.get('index')} {gpu.get('uuid')} "
          f"ctest {gpu.get('ctest_allocation')} claim {(k.get('claim') or {}).get('mode')} "
          f"waited {(k.get('claim') or {}).get('waited_s')}")
PY
  local benches
  benches=$(grep -E '/(bench\.[^/]*|perf)\.json$' "$list")
  if [[ -n $benches ]]; then
    # shellcheck disable=SC2086
    "$kopt" overlap $benches > "$out/$name-overlap.txt" 2>&1
    echo "$name: kopt overlap exit $?" | tee -a "$out/summary.txt"
  fi
  rm -f "$list"
}

run() {  # run NAME ENV... -- CTEST_ARGS...
  local name=$1; shift
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
  find "$build/example_kernels" -path '*/results/*.json' -delete
  # Every run schedules without the previous one's test durations.
  rm -f "$build/Testing/Temporary/CTestCostData.txt"
  touch "$build/.run_marker"; sleep 1
  local t0 t1
  t0=$(date +%s.%N)
  env "${envs[@]}" ctest --test-dir "$build" -j "$jobs" "$@" > "$out/$name-ctest.log" 2>&1
  local status=$?
  t1=$(date +%s.%N)
  printf '%s: ctest exit %d, wall %s s\n' "$name" "$status" "$(awk "BEGIN{printf \"%.1f\", $t1 - $t0}")" | tee -a "$out/summary.txt"
  collect "$name"
}

: > "$out/summary.txt"
cmake "$build" -DKernelOpt_RESOURCE_SPEC=generated > /dev/null
# Every GPU first, so that whatever a first run pays (cold page cache, first
# CUDA contexts) counts against the multi-GPU time.
want all-gpus && run all-gpus KOPT_UNUSED=1 -- -R "$examples" -LE sweep
want one-gpu && run one-gpu CUDA_VISIBLE_DEVICES=0 -- -R "$examples" -LE sweep
if want file-mode; then
  cmake "$build" -DKernelOpt_RESOURCE_SPEC=file > /dev/null
  "$kopt" resources --out "$out/gpus.json" > "$out/resources.txt" 2>&1
  run file-mode KOPT_UNUSED=1 -- -L correctness -R "$examples" --resource-spec-file "$out/gpus.json"
fi
if want no-spec; then
  # No resource groups at all: ctest starts the softmax benchmarks together,
  # all on GPU 0, and only the per-GPU claim keeps their timing apart.
  cmake "$build" -DKernelOpt_RESOURCE_SPEC=none > /dev/null
  run no-spec KOPT_UNUSED=1 -- -L bench -R '^softmax'
  grep -c "waiting for GPU" "$build/Testing/Temporary/LastTest.log" | sed 's/^/no-spec: claim waits logged: /' | tee -a "$out/summary.txt"
fi
cmake "$build" -DKernelOpt_RESOURCE_SPEC=generated > /dev/null
