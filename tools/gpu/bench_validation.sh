#!/usr/bin/env bash
# Checks the benchmark clock on a GPU machine and writes the evidence for
# docs/benchmarking.md ("Measured on the GPU"):
#
#   env     nvidia-smi clocks / performance state, before anything runs
#   ncu     per selected benchmark, one launch under Nsight Compute
#           (--kopt_profile, --clock-control none, --cache-control all,
#           gpu__time_duration.sum): the reference for our median
#   runs    KOPT_VALIDATION_RUNS (5) back-to-back runs of each bench with
#           JSON output: stability, CUPTI agreement, overheads
#   dobench tools/gpu/do_bench_compare.py: Triton's do_bench on torch bf16
#           4096^3 matmul and torch.softmax, for its spread beside ours
#   summary tools/gpu/summarize_validation.py OUT > OUT/summary.md
#
# Usage (from the repository root, after building with examples):
#   tools/gpu/bench_validation.sh BUILD_DIR OUT_DIR [STEP...]
# Steps default to "env ncu runs dobench summary"; run them one at a time
# when a session limits each command's duration.
#
# Environment:
#   KOPT_VALIDATION_RUNS     back-to-back runs per bench (default 5)
#   KOPT_VALIDATION_SOFTMAX  --benchmark_filter for softmax_kopt_bench
#   KOPT_VALIDATION_GEMM     --benchmark_filter for gemm_kopt_bench
#   NCU                      Nsight Compute CLI (default: ncu on PATH, else
#                            /usr/local/cuda/bin/ncu)
set -euo pipefail

if [[ $# -lt 2 ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
fi
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2
steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(env ncu runs dobench summary)
here=$(cd "$(dirname "$0")" && pwd)

runs=${KOPT_VALIDATION_RUNS:-5}
# >= 20 us on H100/H200 (the 2% claim) plus one short shape to show the
# event clock's fixed cost; see docs/benchmarking.md.
softmax_filter=${KOPT_VALIDATION_SOFTMAX:-'^softmax/(v0|v1|v2)/(rows=8192,cols=8192|rows=4096,cols=32000|rows=32768,cols=1024|rows=1048576,cols=64)/'}
gemm_filter=${KOPT_VALIDATION_GEMM:-'^gemm/(cublas|v0)/(M=4096,N=4096,K=4096|M=2000,N=3000,K=1000)/'}

ncu_bin=${NCU:-}
if [[ -z $ncu_bin ]]; then
  ncu_bin=$(command -v ncu || true)
  [[ -z $ncu_bin && -x /usr/local/cuda/bin/ncu ]] && ncu_bin=/usr/local/cuda/bin/ncu
fi

find_bench() {
  find "$build" -type f -name "$1_kopt_bench" -perm -u+x -print -quit
}

declare -A filters=([softmax]=$softmax_filter [gemm]=$gemm_filter)
declare -A benches=()
for k in softmax gemm; do
  path=$(find_bench "$k")
  if [[ -z $path ]]; then
    echo "bench_validation: no ${k}_kopt_bench under $build (configure with examples)" >&2
    exit 1
  fi
  benches[$k]=$path
done

# A benchmark's full name as an anchored regex for --benchmark_filter.
exact_regex() {
  printf '^%s$' "$(printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g')"
}
safe_name() {
  printf '%s' "$1" | sed 's/[^A-Za-z0-9._-]/_/g'
}

step_env() {
  echo "== env"
  {
    date -u +%Y-%m-%dT%H:%M:%SZ
    hostname
    if command -v nvidia-smi >/dev/null; then
      nvidia-smi --query-gpu=index,name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv || true
      nvidia-smi -q -d CLOCK,PERFORMANCE || true
    else
      echo "nvidia-smi not found"
    fi
  } > "$out/env.txt" 2>&1
}

step_ncu() {
  echo "== ncu ($ncu_bin)"
  mkdir -p "$out/ncu"
  rm -f "$out/ncu/index.tsv" "$out/ncu/unavailable.txt"
  if [[ -z $ncu_bin ]]; then
    echo "ncu not found: set NCU" | tee "$out/ncu/unavailable.txt"
    return 0
  fi
  : > "$out/ncu/index.tsv"
  "$ncu_bin" --version > "$out/ncu/version.txt" 2>&1 || true
  for k in softmax gemm; do
    bench=${benches[$k]}
    while IFS= read -r name; do
      [[ -z $name ]] && continue
      safe=$(safe_name "$name")
      printf '%s\t%s\n' "$safe" "$name" >> "$out/ncu/index.tsv"
      echo "   $name"
      # --profile-from-start off: only the one launch --kopt_profile puts
      # between cudaProfilerStart/Stop is measured.
      "$ncu_bin" --profile-from-start off --clock-control none --cache-control all \
        --metrics gpu__time_duration.sum --csv --print-units base \
        --log-file "$out/ncu/$safe.csv" \
        "$bench" --kopt_profile --benchmark_filter="$(exact_regex "$name")" \
        > "$out/ncu/$safe.stdout" 2>&1 || echo "   ncu failed: see $out/ncu/$safe.stdout"
    done < <("$bench" --benchmark_list_tests --benchmark_filter="${filters[$k]}")
  done
}

step_runs() {
  echo "== runs ($runs back-to-back per bench)"
  mkdir -p "$out/runs"
  for k in softmax gemm; do
    for i in $(seq 1 "$runs"); do
      echo "   $k run $i"
      "${benches[$k]}" --benchmark_filter="${filters[$k]}" \
        --benchmark_out="$out/runs/${k}_run$i.json" --benchmark_out_format=json \
        > "$out/runs/${k}_run$i.log" 2>&1 || echo "   $k run $i: exit $? (see the log)"
    done
  done
}

step_dobench() {
  echo "== do_bench"
  python3 "$here/do_bench_compare.py" --out "$out/do_bench.json" || echo "   do_bench_compare.py failed"
}

step_summary() {
  echo "== summary"
  python3 "$here/summarize_validation.py" "$out" > "$out/summary.md"
  cat "$out/summary.md"
}

for step in "${steps[@]}"; do
  case $step in
    env) step_env ;;
    ncu) step_ncu ;;
    runs) step_runs ;;
    dobench) step_dobench ;;
    summary) step_summary ;;
    *) echo "bench_validation: unknown step '$step' (env ncu runs dobench summary)" >&2; exit 2 ;;
  esac
done
