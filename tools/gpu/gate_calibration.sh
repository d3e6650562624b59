#!/usr/bin/env bash
# Calibrates the regression gates on a GPU machine (docs/ci-gating.md,
# "Calibration"). Prints one table (also OUT/calibration.md); every row
# says what it wants.
#
#   A. <k>.perf against a fresh record and baseline of calibration/base
#      (made on the first GPU): RUNS perf runs of the unchanged binary on
#      every GPU (the first is the recording board, the others are other
#      boards of the same model) -> want >= 19/20 exit 0; RUNS perf runs
#      with a ~5 % slowdown injected into the same sources
#      (KOPT_CALIBRATION_EXTRA_ITERS, honoured by calibration/base only)
#      -> want every one exit 1. The measured slowdown is printed.
#   B. The committed records of the real kernels (softmax, softmax_bf16,
#      gemm): RUNS `kopt perf` runs on every GPU -> want >= 19/20 exit 0
#      (the false alarms of issue 16 were there).
#   C. kopt compare: RUNS+1 back-to-back runs of calibration/base and
#      softmax/v2 at rows=8192,cols=8192 -> RUNS compares of consecutive
#      runs, want 0 SLOWER; RUNS compares of base against slower3 (~3 %
#      more work, back-to-back processes) -> want >= 95 % SLOWER.
#   D. The base-vs-PR flow (tools/ci/base_vs_pr.sh, 9 runs a side, ABBA):
#      FLOW times unchanged -> want 0 SLOWER; FLOW times with ~3 % injected
#      -> want every one SLOWER.
#
# Usage: tools/gpu/gate_calibration.sh BUILD_DIR OUT_DIR [RUNS=20]
# Environment (defaults): CAL_GPUS ("0 1 ..." every GPU nvidia-smi lists),
#   CAL_SLOW5 (KOPT_CALIBRATION_EXTRA_ITERS=69: ~5 % on an H200, 1.45x per
#   extra iteration as slower3 measured), CAL_SLOW3 (=41: ~3 %),
#   CAL_BASELINE_RUNS (8), CAL_FLOW (5), CAL_REAL ("softmax softmax_bf16 gemm"),
#   CAL_KERNEL / CAL_VARIANT (calibration / base; ci_flow / v0 with
#   CAL_SLOW5=KOPT_CI_FLOW_SLOWDOWN=2 rehearses the script on the host backend),
#   CAL_PARTS ("A B C D": the parts to run, e.g. "B" in a call of its own),
#   CAL_RECORDS (part A: the OUT of an earlier part A, on another board: its
#   manifest.json, records and baseline are used as they are, nothing is
#   recorded here, so every GPU of this machine is an "other board").
set -uo pipefail
build=$(cd "$1" && pwd); out=$2; runs=${3:-20}
mkdir -p "$out"; out=$(cd "$out" && pwd)
kernel=${CAL_KERNEL:-calibration}; variant=${CAL_VARIANT:-base}
slow5=${CAL_SLOW5:-KOPT_CALIBRATION_EXTRA_ITERS=69}; slow3=${CAL_SLOW3:-KOPT_CALIBRATION_EXTRA_ITERS=41}
baseline_runs=${CAL_BASELINE_RUNS:-8}; flow=${CAL_FLOW:-5}
real=${CAL_REAL-softmax softmax_bf16 gemm}
parts=" ${CAL_PARTS:-A B C D} "
part() { [[ $parts == *" $1 "* ]]; }
if [[ -z ${CAL_GPUS+x} ]]; then
  CAL_GPUS=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | tr '\n' ' ')
fi
gpus=(${CAL_GPUS:-host})
here=$(cd "$(dirname "$0")/../.." && pwd)
kopt=$(find -L "$build" -type f -name kopt -perm -u+x -print -quit)
manifest_of() { find "$build" -path "*/kernelopt/$1/manifest.json" -print -quit; }
on_gpu() {  # GPU command...: the command with only that GPU visible
  local g=$1; shift
  if [[ $g == host ]]; then "$@"; else CUDA_VISIBLE_DEVICES=$g "$@"; fi
}
table=$out/calibration.md
echo "| check | GPU | runs | exit 0 | exit 1 | other | wanted | note |" > "$table"
echo "|---|---|---:|---:|---:|---:|---|---|" >> "$table"
row() { echo "| $* |" >> "$table"; }

# perf_runs LABEL GPU MANIFEST WANT [ENV...]: RUNS perf runs, counted by exit code.
perf_runs() {
  local label=$1 g=$2 m=$3 want=$4; shift 4
  local ok=0 fail=0 other=0 changes=""
  mkdir -p "$out/perf"
  for ((i = 1; i <= runs; i++)); do
    local log=$out/perf/$(echo "$label" | tr -c 'A-Za-z0-9' _)_gpu${g}_$i.log
    on_gpu "$g" env "$@" "$kopt" perf --manifest "$m" > "$log" 2>&1
    case $? in 0) ok=$((ok + 1)) ;; 1) fail=$((fail + 1)) ;; *) other=$((other + 1)) ;; esac
    changes+="$(grep -m1 '| all | geomean |' "$log" | awk -F'|' '{gsub(/ /, "", $6); print $6}') "
  done
  row "$label | $g | $runs | $ok | $fail | $other | $want | geomean changes: $changes"
}

# A. A fresh record and baseline of calibration/base, in OUT (the build's records are left alone).
cal=$(manifest_of "$kernel")
if ! part A; then
  echo "part A not asked for (CAL_PARTS)"
elif [[ -n $cal ]]; then
  python3 - "$cal" "$out/manifest.json" "$out/records" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["records_dir"] = sys.argv[3]
json.dump(m, open(sys.argv[2], "w"), indent=2)
PY
  rm -rf "$out/records"
  g0=${gpus[0]}
  if [[ -n ${CAL_RECORDS:-} ]]; then
    # Another board's record and baseline, as they are.
    cp -r "$(cd "$CAL_RECORDS" && pwd)/records" "$out/records"
    echo "record and baseline from $CAL_RECORDS (made on another board):"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("  recorded on", (r["timing"].get("gpu") or {}).get("uuid", "the host"), r["created_utc"])' \
      "$out/records/$kernel/$variant.json"
    g0=none
  else
    on_gpu "$g0" "$kopt" optimize --manifest "$out/manifest.json" --variant "$variant" --no-profile > "$out/record.log" 2>&1
    echo "record: exit $? ($out/record.log)"
    on_gpu "$g0" "$kopt" baseline --manifest "$out/manifest.json" --runs "$baseline_runs" > "$out/baseline.log" 2>&1
    echo "baseline: exit $? ($out/baseline.log)"; sed -n '/^| shape/,/^$/p' "$out/baseline.log"
  fi
  for g in "${gpus[@]}"; do
    board=$([[ $g == "$g0" ]] && echo "recording board" || echo "other board")
    perf_runs "A perf unchanged ($board)" "$g" "$out/manifest.json" ">= 19/20 exit 0"
    perf_runs "A perf +5 % ($slow5, $board)" "$g" "$out/manifest.json" "every run exit 1" "$slow5"
  done
else
  echo "no $kernel kernel in $build: part A skipped"
fi

# B. The committed records of the real kernels.
part B || real=""
for k in $real; do
  m=$(manifest_of "$k")
  [[ -z $m ]] && { echo "no $k in $build: skipped"; continue; }
  for g in "${gpus[@]}"; do perf_runs "B $k.perf vs committed records" "$g" "$m" ">= 19/20 exit 0"; done
done

# C. kopt compare of single runs (as before: consecutive runs, base vs slower3).
bench_of() { find -L "$build" -type f -name "$1_kopt_bench" -perm -u+x -print -quit; }
calib=$(bench_of calibration); softmax=$(bench_of softmax)
part C || part D || calib=
compare_counts() {  # LABEL WANT A_PREFIX B_PREFIX OFFSET
  local label=$1 want=$2 a=$3 b=$4 offset=$5 same=0 slower=0 other=0
  local name; name=$(echo "$label" | tr -c 'A-Za-z0-9' _)
  for ((i = 1; i <= runs; i++)); do
    local json=$out/compare/${name}_$i.json
    "$kopt" compare "$out/compare/${a}_$((i - offset)).json" "$out/compare/${b}_$i.json" --format json \
      > "$json" 2> "${json%.json}.err"
    local rc=$?
    # exit 1 counts only with "slower": true in the JSON (not an error exit).
    if ((rc == 0)); then same=$((same + 1))
    elif ((rc == 1)) && grep -q '"slower": true' "$json"; then slower=$((slower + 1))
    else other=$((other + 1)); fi
  done
  row "C compare $label | ${gpus[0]} | $runs | $same | $slower | $other | $want | exit 1 = some row SLOWER"
}
if [[ -n $calib ]]; then
  on_gpu "${gpus[0]}" "$calib" --benchmark_filter='^calibration/base/' --benchmark_out="$out/probe.json" --benchmark_out_format=json > "$out/probe.log" 2>&1
  probe=$?
  if ((probe != 0)); then
    echo "calibration bench did not run (exit $probe; 77: no GPU): parts C and D skipped ($out/probe.log)"
    calib=""
  fi
fi
if [[ -n $calib ]] && part C; then
  mkdir -p "$out/compare"
  for ((i = 0; i <= runs; i++)); do
    on_gpu "${gpus[0]}" "$calib" --benchmark_filter='^calibration/base/' --benchmark_out="$out/compare/base_$i.json" --benchmark_out_format=json > /dev/null 2>&1
    on_gpu "${gpus[0]}" "$calib" --benchmark_filter='^calibration/slower3/' --benchmark_out="$out/compare/slower3_$i.json" --benchmark_out_format=json > /dev/null 2>&1
    [[ -n $softmax ]] && on_gpu "${gpus[0]}" "$softmax" --benchmark_filter='^softmax/v2/rows=8192,cols=8192/' --benchmark_out="$out/compare/softmax_$i.json" --benchmark_out_format=json > /dev/null 2>&1
  done
  compare_counts "same binary (calibration/base)" "0 exit 1" base base 1
  [[ -n $softmax ]] && compare_counts "same binary (softmax/v2 8192^2)" "0 exit 1" softmax softmax 1
  compare_counts "base vs slower3 (~3 %)" ">= 95 % exit 1" base slower3 0
fi

# D. The documented base-vs-PR flow, FLOW times each way.
if [[ -n $calib ]] && part D; then
  for kind in unchanged slower3; do
    same=0 slower=0 other=0
    for ((i = 1; i <= flow; i++)); do
      pr_env=""; [[ $kind == slower3 ]] && pr_env=$slow3
      on_gpu "${gpus[0]}" env KOPT="$kopt" KOPT_PR_ENV="$pr_env" "$here/tools/ci/base_vs_pr.sh" --runs 9 \
        --filter '^calibration/base/' "$(dirname "$calib")" "$(dirname "$calib")" "$out/flow/${kind}_$i" > "$out/flow_${kind}_$i.log" 2>&1
      case $? in 0) same=$((same + 1)) ;; 1) slower=$((slower + 1)) ;; *) other=$((other + 1)) ;; esac
    done
    want=$([[ $kind == unchanged ]] && echo "0 exit 1" || echo "every run exit 1")
    row "D base_vs_pr.sh --runs 9, $kind${pr_env:+ ($pr_env)} | ${gpus[0]} | $flow | $same | $slower | $other | $want | U test over 9 processes a side"
  done
fi
echo; cat "$table"
