#!/usr/bin/env bash
# Base vs PR on one runner (docs/ci-gating.md, "Base vs PR"): the benchmark
# of every kernel both builds have, run alternately from the two build
# folders (base, PR, PR, base, ...: drift hits both alike), each run its own
# process; then `kopt compare OUT/<k>/base OUT/<k>/pr`, where each folder's
# files are the repetitions of its rows. With 9 or more runs a side the U
# test decides beyond the threshold; fewer, the runs' spread (docs/loop.md,
# "Comparing runs").
#
# Usage: tools/ci/base_vs_pr.sh [--runs N] [--filter REGEX] [--quick] [--threshold F] BASE_BUILD PR_BUILD OUT
#   --runs N        benchmark processes per side and kernel (default 9)
#   --filter REGEX  --benchmark_filter for every bench (default: all; e.g. '/v4/')
#   --quick         the quick shapes (--kopt_quick)
#   --threshold F   kopt compare's minimum effect (default its own, 0.02)
# Exit: 0 no SLOWER row, 1 some kernel SLOWER, 2 usage error or a bench failed,
# 77 no kernel with a benchmark in both builds (or every bench skipped: no GPU).
# Environment: KOPT_BASE_ENV / KOPT_PR_ENV, "NAME=VALUE ..." set for that
# side's benchmark runs only (tests/ci_flow injects a slowdown this way).
set -uo pipefail
runs=9 filter="" quick="" threshold=""
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    --quick) quick=--kopt_quick; shift ;;
    --threshold) threshold=$2; shift 2 ;;
    *) echo "base_vs_pr.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ $# -ne 3 ]]; then
  sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
base=$1 pr=$2 out=$3
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then echo "base_vs_pr.sh: --runs must be a positive integer, got '$runs'" >&2; exit 2; fi
kopt=${KOPT:-$(find -L "$pr" -type f -name kopt -perm -u+x -print -quit)}
if [[ -z $kopt ]]; then echo "base_vs_pr.sh: no kopt executable under $pr (set KOPT=...)" >&2; exit 2; fi
mkdir -p "$out"

run_bench() {  # side bench json
  local side=$1 bench=$2 json=$3 envs
  if [[ $side == base ]]; then envs=${KOPT_BASE_ENV:-}; else envs=${KOPT_PR_ENV:-}; fi
  local args=(--benchmark_out="$json" --benchmark_out_format=json)
  [[ -n $filter ]] && args+=(--benchmark_filter="$filter")
  [[ -n $quick ]] && args+=("$quick")
  # shellcheck disable=SC2086
  env $envs "$bench" "${args[@]}" > "${json%.json}.log" 2>&1
}

status=77
while IFS= read -r pr_bench; do
  name=$(basename "$pr_bench"); kernel=${name%_kopt_bench}
  base_bench=$(find -L "$base" -type f -name "$name" -perm -u+x -print -quit)
  if [[ -z $base_bench ]]; then echo "$kernel: no $name in $base (new in the PR): not compared"; continue; fi
  mkdir -p "$out/$kernel/base" "$out/$kernel/pr"
  skipped=0
  for ((i = 0; i < runs; i++)); do
    # ABBA: base first on even runs, PR first on odd ones.
    if ((i % 2 == 0)); then order="base pr"; else order="pr base"; fi
    for side in $order; do
      if [[ $side == base ]]; then bench=$base_bench; else bench=$pr_bench; fi
      json=$out/$kernel/$side/run$(printf '%03d' "$i").json
      run_bench "$side" "$bench" "$json"; rc=$?
      if ((rc == 77)); then skipped=1; break 2; fi
      if ((rc != 0)); then echo "$kernel: the $side benchmark failed (exit $rc): ${json%.json}.log" >&2; exit 2; fi
    done
  done
  if ((skipped)); then echo "$kernel: SKIPPED: the benchmark exited 77 (no device to time on)"; rm -rf "${out:?}/$kernel"; continue; fi
  args=(compare "$out/$kernel/base" "$out/$kernel/pr")
  [[ -n $threshold ]] && args+=(--threshold "$threshold")
  "$kopt" "${args[@]}" > "$out/$kernel/compare.md"; rc=$?
  "$kopt" "${args[@]}" --format json > "$out/$kernel/compare.json"
  echo "== $kernel: $runs runs a side =="; cat "$out/$kernel/compare.md"
  if ((rc == 1)); then status=1; elif ((rc != 0)); then exit 2; elif ((status == 77)); then status=0; fi
done < <(find -L "$pr" -type f -name '*_kopt_bench' -perm -u+x | sort)
if ((status == 77)); then echo "SKIPPED: no kernel was compared (no benchmark in both builds, or no device)"; fi
exit $status
