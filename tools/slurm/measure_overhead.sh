#!/usr/bin/env bash
# What Slurm itself costs on a one-node local cluster (docs/scale-out.md,
# "Measured"): sbatch's latency, and the time from submitting an array of
# N tasks that do nothing (/bin/true) plus a job depending on it (afterany)
# to the end of that job, i.e. scheduling and start-up with no work.
# Usage: tools/slurm/measure_overhead.sh [N] [REPEATS]   (as root; slurm-wlm, munge)
set -euo pipefail
n=${1:-4} repeats=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/local_cluster.sh"
why=$(kopt_slurm_missing)
[[ -z $why ]] || { echo "cannot measure: $why"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/kopt-slurm-measure.XXXXXX")
trap 'kopt_slurm_stop "$dir"; rm -rf "$dir"' EXIT
t0=$(date +%s.%N)
kopt_slurm_start "$dir" > /dev/null
t1=$(date +%s.%N)
printf '#!/bin/bash\ntrue\n' > "$dir/true.sh"
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "cluster start: %.2f s\n", b - a }'
for ((r = 0; r < repeats; r++)); do
  s0=$(date +%s.%N)
  array=$(sbatch --parsable --array=0-$((n - 1)) --output=/dev/null "$dir/true.sh")
  s1=$(date +%s.%N)
  after=$(sbatch --parsable --dependency=afterany:"$array" --output=/dev/null "$dir/true.sh")
  while [[ -n $(squeue -h -j "$after" 2> /dev/null) ]]; do sleep 0.05; done
  s2=$(date +%s.%N)
  awk -v a="$s0" -v b="$s1" -v c="$s2" -v n="$n" \
    'BEGIN { printf "sbatch %.3f s; array of %d empty tasks + dependent job, submit to end: %.2f s\n", b - a, n, c - a }'
done
