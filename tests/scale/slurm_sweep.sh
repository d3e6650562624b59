#!/usr/bin/env bash
# scale.slurm: the scale_mm sweep on a real (one-node, localhost) Slurm
# cluster (docs/scale-out.md). kopt slurm submits 4 shards as a job array
# and a merge job after it; one array task is cancelled mid-run; the merge
# job says which shard is missing (exit 3); kopt slurm --resubmit submits
# that shard only; the second merge equals a single-process run of the same
# sweep (same champion per shape, same failed points). The daemons are
# always stopped. Skips (77) with the reason when slurm-wlm or munge is
# missing (tools/setup.sh installs them).
# Usage: slurm_sweep.sh KOPT MANIFEST WORK_DIR SOURCE_DIR
set -euo pipefail
kopt=$1 manifest=$2 work=$3 source_dir=$4
n=4
# shellcheck source=../../tools/slurm/local_cluster.sh
source "$source_dir/tools/slurm/local_cluster.sh"
if why=$(kopt_slurm_missing) && [[ -n $why ]]; then
  echo "SKIPPED: no local Slurm: $why"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
cluster=$work/cluster
# The daemons are stopped however the test ends; a watchdog ends it well
# before CTest's TIMEOUT would kill it without running the trap.
deadline=${KOPT_SLURM_TEST_DEADLINE:-780}
# (Its output goes nowhere: CTest waits for every holder of the test's pipe.)
(sleep "$deadline" && kill -TERM $$) > /dev/null 2>&1 &
watchdog=$!
cleanup() {
  set +e  # every step, whatever the one before returned
  pkill -P "$watchdog" 2> /dev/null
  kill "$watchdog" 2> /dev/null
  kopt_slurm_stop "$cluster"
}
trap cleanup EXIT
trap 'echo "FAIL: stopped (the deadline of $deadline s, or a signal)" >&2; exit 124' TERM INT
fail() {
  echo "FAIL: $*" >&2
  for f in "$work"/shards/slurm/logs/*.out "$cluster"/log/slurmctld.log; do
    [[ -f $f ]] && { echo "--- $f"; tail -15 "$f"; } >&2
  done
  exit 1
}
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Waits until job $1 has left the queue (at most $2 s).
wait_job() {
  local t
  for ((t = 0; t < $2 * 5; t++)); do
    [[ -z $(squeue -h -j "$1" 2> /dev/null) ]] && return 0
    sleep 0.2
  done
  fail "job $1 still queued after $2 s: $(squeue)"
}
job_exit() { scontrol show job "$1" | sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p' | head -1; }

t0=$(now)
kopt_slurm_start "$cluster" || fail "could not start the local Slurm"
t_up=$(now)
echo "local Slurm up in $(seconds "$t0" "$t_up") s ($(sinfo -h -N -o '%N %c CPUs %m MB'))"

echo "== one process runs the whole sweep"
t1=$(now)
"$kopt" shard run --manifest "$manifest" --shard 0/1 --out "$work/single" > "$work/single.log"
"$kopt" merge "$work/single" --out "$work/single-merged" > /dev/null
t2=$(now)

victim=0 most=0
for ((i = 0; i < n; i++)); do
  count=$("$kopt" shard list --manifest "$manifest" --shard "$i/$n" | wc -l)
  if ((count > most)); then victim=$i most=$count; fi
done
stem=$(printf 'shard-%04d-of-%04d' "$victim" "$n")

echo "== kopt slurm: $n shards as a job array, a merge job after it"
t3=$(now)
"$kopt" slurm --manifest "$manifest" --shards "$n" --out "$work/shards" --time 00:10:00 | tee "$work/submit1.log"
array=$(sed -n 's/^submitted shards .* as job \([0-9]*\);.*/\1/p' "$work/submit1.log")
merge_job=$(sed -n 's/.*; merge job \([0-9]*\) .*/\1/p' "$work/submit1.log")
[[ -n $array && -n $merge_job ]] || fail "kopt slurm printed no job ids"
grep -q -- '--array=0-3' "$work/shards/slurm/logs/../shard.sbatch" 2> /dev/null ||
  grep -q -- "#SBATCH --requeue" "$work/shards/slurm/shard.sbatch" || fail "no --requeue in the shard script"
scontrol show job "$merge_job" | grep -q "Dependency=afterany:${array}" || fail "the merge job does not depend on $array (afterany)"

echo "== cancel array task $victim after its first unit"
for ((t = 0; t < 3000; t++)); do
  compgen -G "$work/shards/$stem.*.partial/*/logs/*.log" > /dev/null && break
  compgen -G "$work/shards/$stem.*[0-9]" > /dev/null && fail "shard $victim finished before it could be cancelled"
  sleep 0.1
done
scancel "${array}_${victim}"
echo "cancelled ${array}_${victim}"
wait_job "$merge_job" 600
t4=$(now)
code=$(job_exit "$merge_job")
[[ $code == 3 ]] || fail "the merge job exited $code, expected 3 (incomplete)"
grep -q "missing shards $victim of $n" "$work"/shards/slurm/logs/merge."$merge_job".out ||
  fail "the merge job did not name shard $victim as missing"

echo "== kopt slurm --resubmit: shard $victim only"
t5=$(now)
"$kopt" slurm --manifest "$manifest" --shards "$n" --out "$work/shards" --time 00:10:00 --resubmit |
  tee "$work/submit2.log"
grep -q "to run: $victim\$" "$work/submit2.log" || fail "--resubmit did not choose shard $victim alone"
array2=$(sed -n 's/^submitted shards .* as job \([0-9]*\);.*/\1/p' "$work/submit2.log")
merge_job2=$(sed -n 's/.*; merge job \([0-9]*\) .*/\1/p' "$work/submit2.log")
wait_job "$merge_job2" 600
t6=$(now)
code=$(job_exit "$merge_job2")
[[ $code == 0 ]] || fail "the second merge job exited $code"
rerun=$(grep -l "\"SLURM_ARRAY_JOB_ID\": \"$array2\"" "$work"/shards/shard-*/shard.json | wc -l)
((rerun == 1)) || fail "expected exactly one shard folder from job $array2, found $rerun"

echo "== the merged result equals the single-process run"
"$kopt" merge "$work/shards" --manifest "$manifest" --out "$work/check" --same-as "$work/single-merged" \
  > "$work/check.log" ||
  fail "merge --same-as: $(tail -5 "$work/check.log")"
grep -q "^SAME champions and failures" "$work/check.log" || fail "not the same"
cmp <(grep -v '"dir"' "$work/shards/merged/merge.json") <(grep -v '"dir"' "$work/check/merge.json") > /dev/null ||
  fail "the merge job's merge.json differs from a merge of the same folders"
# The merge job was given the manifest: the records a single host makes.
for f in "$work"/check/*/records/scale_mm/*.json; do
  cmp <(grep -v '_utc"' "$f") <(grep -v '_utc"' "$work/shards/merged/${f#"$work"/check/}") > /dev/null ||
    fail "the merge job's ${f#"$work"/check/} differs from a merge of the same folders"
done
compgen -G "$work/shards/merged/*/records/scale_mm/p5.json" > /dev/null || fail "the merge job wrote no records"

echo "timings (s): cluster start $(seconds "$t0" "$t_up"); one process $(seconds "$t1" "$t2");" \
  "slurm array + merge with one task cancelled $(seconds "$t3" "$t4"); resubmit of one shard + merge $(seconds "$t5" "$t6")"
echo "PASS: $n shards on Slurm, task $victim cancelled and resubmitted alone, merged = single process"
