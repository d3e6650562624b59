#!/usr/bin/env bash
# scale.family_shards: a family's points as shard units (docs/scale-out.md,
# "Families"). One process runs `kopt sweep` + `kopt select` of scale_fam
# v1 (16 points); the same suite then runs as 4 shards in separate
# processes (one of them twice: a duplicate), and `kopt merge --manifest`
# must give what the single process gave: the same selection (champion per
# shape, failed points and why), the same points' stages, the same sweep
# report, and the same records and kernel report as a single host's run of
# the suite merged (`kopt shard run --shard 0/1`) — timings, dates and
# hosts aside (compare_merge.cmake). A merge without one shard exits 3 and
# makes no selection from the points it has. `kopt merge --into-records`
# installs the merged records and selection into the kernel's RECORDS
# (refusing a --model the results do not hold, and a record there that
# differs), and the next build of the build tree generates the dispatch
# from it, with the single process's champions. A complete merge whose
# family has no correct point on a shape exits 4 and names it.
# Usage: family_shards.sh KOPT MANIFEST WORK_DIR SHARDS RECORDS_DIR COMPARE_SCRIPT BUILD_DIR
set -euo pipefail
kopt=$1 manifest=$2 work=$3 n=$4 records=$5 compare=$6 build=$7
stamp=$(dirname "$manifest")/selection.stamp
rm -rf "$work" "$records/scale_fam" "$records/experience"
mkdir -p "$work"
# kopt select and kopt merge --into-records write into the kernel's
# RECORDS; they must not outlive the test (a configure would build their
# dispatch): the stamp makes the next build configure again without it.
trap 'rm -rf "$records/scale_fam" "$records/experience"; [[ -e $stamp ]] && touch "$stamp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# Timestamps (whole: the hour after the T is not a number on its own, and
# two runs can straddle an hour), numbers (times, ratios) and the unit a
# time was printed in masked (the same work takes 900 us in one run, 1.1 ms
# in the next); identifiers such as v1_p5 kept.
# Numbers, times and the measurement flags (how noisy or throttled a timing
# was, formats/bench_result.cpp) differ from run to run; the rest may not.
masked() {
  sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?Z?/TIME/g' \
    -e 's/(^|[^A-Za-z_0-9])[0-9][0-9.e+-]*/\1#/g' -e 's/# (ns|us|µs|ms|s)([^A-Za-z]|$)/# t\2/g' \
    -e 's/(clock_disagreement|throttled|noise_above_bound|launch_not_hidden)( \(# of # shapes\))?([,;] )?//g' \
    -e 's/ +/ /g' "$1"
}

echo "== the points are units: every shard lists its share, together each point once"
listed=()
for ((i = 0; i < n; i++)); do
  mapfile -t -O "${#listed[@]}" listed < <("$kopt" shard list --manifest "$manifest" --shard "$i/$n")
  regex=$("$kopt" shard list --manifest "$manifest" --shard "$i/$n" --format ctest-regex)
  for unit in $("$kopt" shard list --manifest "$manifest" --shard "$i/$n" | grep '_p[0-9]*$'); do
    [[ $regex == *"scale_fam\\.sweep\\.${unit#scale_fam/}"* ]] || fail "shard $i's ctest regex has no test of $unit: $regex"
  done
done
points=$(printf '%s\n' "${listed[@]}" | grep -c '^scale_fam/v1_p[0-9]*$')
((points == 16)) || fail "the shards list $points points, expected 16"
[[ -z $(printf '%s\n' "${listed[@]}" | sort | uniq -d) ]] || fail "a unit is listed by two shards"

echo "== one process: kopt sweep + kopt select"
"$kopt" sweep --manifest "$manifest" --variant v1 --sweep-dir "$work/single-sweep" > "$work/sweep.log"
"$kopt" select --manifest "$manifest" --variant v1 --sweep-dir "$work/single-sweep" > "$work/select.log"
cp -r "$records/scale_fam" "$work/single-select"
rm -rf "$records/scale_fam"
echo "== one process: the whole suite as one shard, merged with the manifest"
"$kopt" shard run --manifest "$manifest" --shard 0/1 --out "$work/single" > "$work/single.log"
"$kopt" merge "$work/single" --manifest "$manifest" --out "$work/single-merged" > "$work/single-merge.log"

echo "== $n shards, one process each; shard 1 twice"
for ((i = 0; i < n; i++)); do
  "$kopt" shard run --manifest "$manifest" --shard "$i/$n" --out "$work/shards" > "$work/shard$i.log"
done
"$kopt" shard run --manifest "$manifest" --shard "1/$n" --out "$work/shards" > "$work/shard1-again.log"

echo "== merge without shard 0's folder: incomplete, no selection from part of the points"
mkdir -p "$work/some"
for d in "$work"/shards/shard-*; do
  [[ $d == */shard-0000-* ]] || ln -s "$d" "$work/some/"
done
set +e
"$kopt" merge "$work"/some/* --manifest "$manifest" --out "$work/merged-some" > "$work/merge-some.log" 2>&1
code=$?
set -e
((code == 3)) || fail "a merge without shard 0 exited $code, expected 3: $(tail -3 "$work/merge-some.log")"
shard0_point=$("$kopt" shard list --manifest "$manifest" --shard "0/$n" | grep -m1 '_p[0-9]*$' || true)
if [[ -n $shard0_point ]]; then
  grep -q "not made: scale_fam/v1 selection: .*${shard0_point#scale_fam/} (no result)" "$work/merge-some.log" ||
    fail "the incomplete merge did not name ${shard0_point} as the point without a result"
  compgen -G "$work/merged-some/*/records/scale_fam/v1.selection.json" > /dev/null &&
    fail "the incomplete merge wrote a selection"
fi

echo "== merge of every shard: complete, equal to the single process"
"$kopt" merge "$work/shards" --manifest "$manifest" --out "$work/merged" --same-as "$work/single-merged" |
  tee "$work/merge.log"
grep -q "^SAME champions and failures" "$work/merge.log" || fail "champions differ from the single host's run"
grep -q '"duplicates_left_out": \[$' "$work/merged/merge.json" || fail "the duplicate of shard 1 is not listed"
models=("$work"/merged/*/records)
((${#models[@]} == 1)) || fail "expected one device model, got ${#models[@]}"
group=$(dirname "${models[0]}")
single_group=$(dirname "$(compgen -G "$work/single-merged/*/records")")
cmake -DSINGLE_SELECT="$work/single-select" -DSINGLE_SWEEP="$work/single-sweep" -DSINGLE_MERGED="$single_group" \
  -DMERGED="$group" -P "$compare" || fail "the merged records differ from the single process's (above)"
# The reports, numbers masked: the sweep report against kopt select's, the
# kernel report against the single host's merged run.
diff <(masked "$work/single-select/report/v1.sweep.md") <(masked "$group/records/scale_fam/report/v1.sweep.md") ||
  fail "the sweep report differs from kopt select's"
diff <(masked "$single_group/records/scale_fam/report/report.md") <(masked "$group/records/scale_fam/report/report.md") ||
  fail "the kernel report differs from the single host's"

echo "== --into-records: a model the results do not hold, then the one they hold"
set +e
"$kopt" merge "$work/shards" --manifest "$manifest" --out "$work/installed" --into-records --model "no such GPU" \
  > "$work/install-bad.log" 2>&1
code=$?
set -e
((code == 2)) || fail "--model of an absent model exited $code, expected 2"
grep -q "no results of that device model" "$work/install-bad.log" || fail "no message naming the models: $(cat "$work/install-bad.log")"
[[ ! -e $records/scale_fam ]] || fail "a refused install wrote into RECORDS"
"$kopt" merge "$work/shards" --manifest "$manifest" --out "$work/installed" --into-records > "$work/install.log"
installed_group=$(dirname "$(compgen -G "$work/installed/*/records")")
cmp "$records/scale_fam/v1.selection.json" "$installed_group/records/scale_fam/v1.selection.json" ||
  fail "the installed selection is not the merged one"
cmp "$records/scale_fam/v0.json" "$installed_group/records/scale_fam/v0.json" || fail "the installed record is not the merged one"
# Two merges of the same shards, seconds apart, make the same record (its
# times are the shard run's, not the merge's).
cmp "$group/records/scale_fam/v0.json" "$installed_group/records/scale_fam/v0.json" ||
  fail "two merges of the same shards made different records: $(diff "$group/records/scale_fam/v0.json" "$installed_group/records/scale_fam/v0.json" | head -5)"
[[ -f $records/scale_fam/report/v1.sweep.md && -f $records/scale_fam/report/report.md ]] || fail "no reports installed"
grep -q "^experience -> " "$work/install.log" || fail "the new record was not added to the experience store (as kopt record)"
# Installed again: the records there are equal, left as they are.
"$kopt" merge "$work/shards" --manifest "$manifest" --out "$work/installed" --into-records > "$work/install-again.log"
grep -q "^unchanged .*/scale_fam/v0.json" "$work/install-again.log" || fail "a second install did not leave v0's record"
# A record there that differs: nothing is installed, exit 2.
jq '.variant_note = "edited"' "$records/scale_fam/v0.json" > "$work/v0-edited.json"
cp "$work/v0-edited.json" "$records/scale_fam/v0.json"
rm "$records/scale_fam/v1.selection.json"
set +e
"$kopt" merge "$work/shards" --manifest "$manifest" --out "$work/installed" --into-records > "$work/install-differs.log" 2>&1
code=$?
set -e
((code == 2)) || fail "an install over a differing record exited $code, expected 2"
grep -q "exists and differs from the merged one" "$work/install-differs.log" || fail "no message: $(cat "$work/install-differs.log")"
[[ ! -e $records/scale_fam/v1.selection.json ]] || fail "a refused install wrote the selection"
rm -rf "$records/scale_fam"
"$kopt" merge "$work/shards" --manifest "$manifest" --out "$work/installed" --into-records > "$work/install.log"

echo "== the next build configures again and builds the dispatch from the installed selection"
[[ $stamp -nt $manifest ]] || fail "the install did not touch $stamp"
cmake --build "$build" --target scale_fam_v1_dispatch > "$work/dispatch-build.log" 2>&1 ||
  fail "the dispatch did not build: $(tail -20 "$work/dispatch-build.log")"
dispatch=$(dirname "$manifest")/dispatch/scale_fam_v1_dispatch.cpp
[[ -f $dispatch ]] || fail "no generated dispatch $dispatch"
grep -q "Generated by KernelOpt from $records/scale_fam/v1.selection.json" "$(dirname "$manifest")/dispatch/scale_fam_v1_dispatch.hpp" ||
  fail "the dispatch is not generated from the installed selection"
while read -r shape champion; do
  grep -q "&kopt_point_scale_fam_${champion}, \"${champion}\", \"${shape}\"" "$dispatch" ||
    fail "the dispatch does not serve $shape with $champion (kopt select's champion): $(grep kopt_point "$dispatch")"
done < <(sed -nE 's/^  ([A-Z]=[^:]*): (v1_p[0-9]+) .*/\1 \2/p' "$work/select.log")
(($(sed -nE 's/^  ([A-Z]=[^:]*): (v1_p[0-9]+) .*/\1/p' "$work/select.log" | wc -l) == 2)) ||
  fail "kopt select's log names no champion per shape: $(cat "$work/select.log")"

echo "== a complete merge whose family has no correct point on a shape: exit 4, named"
cp -r "$work/shards" "$work/shards-wrong"
for f in "$work"/shards-wrong/*/scale_fam/sweep/v1/v1_p*[0-9].json; do
  jq '.correctness.status = "fail"' "$f" > "$f.edited" && mv "$f.edited" "$f"
done
set +e
"$kopt" merge "$work/shards-wrong" --manifest "$manifest" --out "$work/merged-wrong" > "$work/merge-wrong.log" 2>&1
code=$?
set -e
((code == 4)) || fail "a merge without a usable point exited $code, expected 4: $(tail -3 "$work/merge-wrong.log")"
grep -q "NO SELECTION for scale_fam/v1" "$work/merge-wrong.log" || fail "the family without a selection is not named"
compgen -G "$work/merged-wrong/*/records/scale_fam/v1.selection.json" > /dev/null && fail "a selection was written"
echo "PASS: $points points in $n shards merged = kopt sweep + kopt select in one process; installed, dispatch built"
