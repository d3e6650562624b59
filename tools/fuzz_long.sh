#!/usr/bin/env bash
# The long fuzz run (docs/reliability.md, "Fuzzing"): every fuzz target for
# 10^6 executions or SECONDS (default 600), whichever comes first, all
# targets at once (one core each), over its seeds and committed regression
# inputs (tests/fuzz/targets.cmake). Writes <target>.log (libFuzzer's final
# stats) and summary.md to OUT_DIR; a finding's input is left under
# OUT_DIR/<target>/artifacts/ (copy it to tests/fuzz/regressions/<target>/).
#
# Usage (from the repository root):
#   tools/fuzz_long.sh FUZZ_BIN_DIR OUT_DIR [SECONDS [RUNS]]
# FUZZ_BIN_DIR holds fuzz_<target> built from tests/fuzz/project (clang,
# libFuzzer, ASan, UBSan).
set -uo pipefail
if [[ $# -lt 2 ]]; then
  sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
fi
bin=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
seconds=${3:-600}
runs=${4:-1000000}
root=$(pwd)
targets=$(sed -n '/^set(KOPT_FUZZ_TARGETS/,/)/p' tests/fuzz/targets.cmake | tr -d '()' | sed 's/^setKOPT_FUZZ_TARGETS//' | xargs)

pids=()
for t in $targets; do
  cmake -DFUZZER="$bin/fuzz_$t" -DTARGET="$t" -DROOT="$root" -DWORK="$out/$t" -DSECONDS="$seconds" \
        "-DEXTRA=-runs=$runs" -P tests/fuzz/run_fuzz.cmake > "$out/$t.log" 2>&1 &
  pids+=("$!:$t")
done
status=0
{
  echo "# Long fuzz run, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores"
  echo
  echo "Each target: -runs=$runs -max_total_time=$seconds, one process per target, all at once."
  echo
  echo "| target | result | executions | seconds | exec/s | coverage (cov) | corpus |"
  echo "|---|---|---|---|---|---|---|"
} > "$out/summary.md"
for entry in "${pids[@]}"; do
  pid=${entry%%:*}
  t=${entry#*:}
  if wait "$pid"; then result=clean; else result=FINDING; status=1; fi
  log="$out/$t.log"
  execs=$(awk '/stat::number_of_executed_units:/ {print $2}' "$log" | tail -1)
  secs=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | awk '{print $5}' | tail -1)
  rate=$(awk '/stat::average_exec_per_sec:/ {print $2}' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2}')
  corp=$(grep -oE 'corp: [0-9]+/[0-9a-zA-Z]+' "$log" | tail -1 | awk '{print $2}')
  echo "| $t | $result | ${execs:-?} | ${secs:-$seconds} | ${rate:-?} | ${cov:-?} | ${corp:-?} |" >> "$out/summary.md"
done
cat "$out/summary.md"
exit $status
