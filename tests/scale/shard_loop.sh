#!/usr/bin/env bash
# scale.shard_loop: the CI-matrix / Kubernetes pattern (docs/scale-out.md).
# Shards 0..N-1 of the scale_mm sweep run as separate processes (as the
# jobs of a CI matrix or the pods of an indexed Job would, one of them with
# its index from JOB_COMPLETION_INDEX); one shard is killed mid-run, the
# merge says which is missing (exit 3), only that shard runs again, and the
# merge then equals a single-process run of the same sweep: same champion
# per shape, same failed points (kopt merge --same-as).
# The generated CTest suite splits the same way: the union of the shards'
# `kopt shard list --format ctest-regex` selections is every scale_mm
# correctness test, each once.
# Usage: shard_loop.sh KOPT MANIFEST WORK_DIR SHARDS CTEST BUILD_DIR
set -euo pipefail
kopt=$1 manifest=$2 work=$3 n=$4 ctest=$5 build=$6
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== the generated CTest tests, shard by shard"
selected=()
for ((i = 0; i < n; i++)); do
  regex=$("$kopt" shard list --manifest "$manifest" --shard "$i/$n" --format ctest-regex)
  mapfile -t -O "${#selected[@]}" selected < <("$ctest" --test-dir "$build" -N -R "$regex" |
    sed -n 's/^ *Test *#[0-9]*: \(scale_mm\.correct\.[a-z0-9_]*\)$/\1/p')
done
all=$("$ctest" --test-dir "$build" -N -R '^scale_mm\.correct\.' | grep -c 'Test *#')
((${#selected[@]} == all && all == 16)) || fail "the shards selected ${#selected[@]} correctness tests of $all (16 expected)"
dups=$(printf '%s\n' "${selected[@]}" | sort | uniq -d)
[[ -z $dups ]] || fail "selected by two shards: $dups"

echo "== one process runs the whole sweep"
"$kopt" shard run --manifest "$manifest" --shard 0/1 --out "$work/single" > "$work/single.log"
"$kopt" merge "$work/single" --out "$work/single-merged" > /dev/null

# The shard that gets killed: the one with the most units.
victim=0 most=0
for ((i = 0; i < n; i++)); do
  count=$("$kopt" shard list --manifest "$manifest" --shard "$i/$n" | wc -l)
  echo "shard $i: $count units"
  if ((count > most)); then victim=$i most=$count; fi
done
((most >= 2)) || fail "no shard has 2 units to be killed between"

echo "== shards 0..$((n - 1)), one process each; shard $victim is killed after its first unit"
for ((i = 0; i < n; i++)); do
  if ((i == victim)); then
    "$kopt" shard run --manifest "$manifest" --shard "$i/$n" --out "$work/shards" > "$work/victim.log" 2>&1 &
    pid=$!
    # Killed once its first unit has finished (its log is written), before the last.
    for ((t = 0; t < 600; t++)); do
      if compgen -G "$work/shards/shard-*-of-*.partial/*/logs/*.log" > /dev/null; then break; fi
      kill -0 "$pid" 2> /dev/null || fail "shard $i ended before it could be killed"
      sleep 0.1
    done
    kill -TERM "$pid"
    wait "$pid" && fail "the killed shard exited 0"
    echo "killed shard $i (pid $pid)"
  elif ((i == 0)); then
    # As a Kubernetes indexed Job's pod: the index from the environment.
    JOB_COMPLETION_INDEX=$i "$kopt" shard run --manifest "$manifest" --shard "auto/$n" --out "$work/shards" > /dev/null
  else
    "$kopt" shard run --manifest "$manifest" --shard "$i/$n" --out "$work/shards" > /dev/null
  fi
done
compgen -G "$work/shards/*.partial" > /dev/null || fail "the killed shard left no .partial folder"

echo "== merge: incomplete, the killed shard named"
set +e
"$kopt" merge "$work/shards" --out "$work/merged" > "$work/merge1.log" 2>&1
code=$?
set -e
cat "$work/merge1.log"
((code == 3)) || fail "merge with a shard missing exited $code, expected 3 (incomplete)"
grep -q "missing shards $victim of $n" "$work/merge1.log" || fail "the merge did not name shard $victim as missing"

echo "== with a budget too small for any unit, shard $victim stays missing"
set +e
"$kopt" shard run --manifest "$manifest" --shard "$victim/$n" --out "$work/shards" --budget 1 > "$work/budget.log"
code=$?
set -e
((code == 1)) || fail "a shard out of budget exited $code, expected 1 (partial)"
grep -q "partial, 0 units run" "$work/budget.log" || fail "the shard out of budget ran units: $(cat "$work/budget.log")"
set +e
"$kopt" merge "$work/shards" --out "$work/merged" > "$work/merge1b.log" 2>&1
code=$?
set -e
if ((code != 3)) || ! grep -q "missing shards $victim of $n" "$work/merge1b.log"; then
  fail "after a partial run of shard $victim the merge exited $code: $(tail -3 "$work/merge1b.log")"
fi

echo "== shard $victim again, and only it"
before=$(find "$work/shards" -maxdepth 1 -name 'shard-*' ! -name '*.partial' | wc -l)
"$kopt" shard run --manifest "$manifest" --shard "$victim/$n" --out "$work/shards" > /dev/null
after=$(find "$work/shards" -maxdepth 1 -name 'shard-*' ! -name '*.partial' | wc -l)
((after == before + 1)) || fail "expected one more shard folder, got $before -> $after"

echo "== merge: complete, equal to the single-process run"
"$kopt" merge "$work/shards" --out "$work/merged" --same-as "$work/single-merged" | tee "$work/merge2.log"
grep -q "^SAME champions and failures" "$work/merge2.log" || fail "not the same as the single-process run"
# The same files, in the same layout, as the single-process run's merge.
files() { (cd "$1" && find . -type f ! -name merge.json ! -name merge.md | sort); }
diff <(files "$work/single-merged") <(files "$work/merged") || fail "the merged folder's files differ from the single run's"

echo "== order does not matter; a duplicate of a shard is resolved by the rule"
mapfile -t folders < <(find "$work/shards" -mindepth 1 -maxdepth 1 -name 'shard-*' | sort -r)
"$kopt" merge "${folders[@]}" --out "$work/merged-reversed" > /dev/null
cmp "$work/merged/merge.json" "$work/merged-reversed/merge.json" || fail "merge.json depends on the order of its inputs"
"$kopt" shard run --manifest "$manifest" --shard "0/$n" --out "$work/shards" > /dev/null
"$kopt" merge "$work/shards" --out "$work/merged-dup" --same-as "$work/single-merged" > "$work/merge3.log" ||
  fail "merge with a duplicate shard: exit $? ($(tail -3 "$work/merge3.log"))"
grep -q '"duplicates_left_out": \[$' "$work/merged-dup/merge.json" || fail "no duplicate listed in merge.json"
echo "PASS: $n shards, one killed and re-run, merged = single process"
