#!/usr/bin/env bash
# tools/gpu/faults_and_sanitizer.sh on a fake build tree (no build, no GPU):
# a kopt that prints verdicts and a compute-sanitizer that records what it
# was asked to run. Checks which tests each tool gets (variants; a family's
# built points while it has no selection; baselines under memcheck only; no
# EXPECT_FAILURE variant, no other sweep point, no host kernel), that each
# run's whole output is kept, that the log shows the reports, the count of
# skipped tests and the exit status (9: reports, 124: the time limit) in a
# fixed order, and that the runs go side by side.
set -uo pipefail
script=$1; dir=$2
rm -rf "$dir"; mkdir -p "$dir/bin"
build=$dir/build
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$build/framework/src/kopt" "$build/tests/gpu/broken/kernelopt/broken_scale"
echo '{}' > "$build/tests/gpu/broken/kernelopt/broken_scale/manifest.json"
cat > "$build/framework/src/kopt/kopt" <<'K'
#!/usr/bin/env bash
v=${5:-?}
echo "noise"
echo "gate broken_scale/$v: $([[ $v == good ]] && echo ACCEPT || echo REJECT)"
[[ $v == good ]]
K
chmod +x "$build/framework/src/kopt/kopt"

manifest() { # DIR KERNEL BACKEND VARIANTS-JSON BASELINES-JSON
  mkdir -p "$build/example_kernels/$1/kernelopt/$2"
  cat > "$build/example_kernels/$1/kernelopt/$2/manifest.json" <<M
{"kernel": "$2", "backend": "$3", "executables": {"test": "$dir/$2_test"}, "variants": $4, "baselines": $5}
M
}
# fam has no selection yet: its built point (fam_p0) runs in place of its
# dispatch; fam_p1 is not built, fam_p2 is skipped on this machine. sel has a
# selection: its dispatch runs, its built point does not.
touch "$dir/libfam_p0.so" "$dir/libfam_p2.so" "$dir/libsel_p0.so" "$dir/sel.selection.json"
point() { echo "{\"name\": \"$1\", \"library\": \"$dir/lib$1.so\", \"skip\": $2}"; }
manifest mat gemm cuda "[{\"name\": \"v0\", \"expect_failure\": null},
  {\"name\": \"fam\", \"expect_failure\": null, \"family\": {\"selection\": \"$dir/fam.selection.json\",
    \"points\": [$(point fam_p0 null), $(point fam_p1 null), $(point fam_p2 '"no sm_90a here"')]}},
  {\"name\": \"sel\", \"expect_failure\": null, \"family\": {\"selection\": \"$dir/sel.selection.json\",
    \"points\": [$(point sel_p0 null)]}},
  {\"name\": \"broken\", \"expect_failure\": \"wrong on purpose\"}]" '[{"name": "vendor", "expect_failure": null}]'
manifest soft softmax cuda '[{"name": "v0", "expect_failure": null}]' '[]'
manifest host host_mm host '[{"name": "v0", "expect_failure": null}]' '[]'

# The fake tool: records its arguments; softmax under racecheck reports a
# hazard, gemm under racecheck outlives the limit; each run takes 2 s.
cat > "$dir/bin/fake-sanitizer" <<F
#!/usr/bin/env bash
echo "\$*" >> "$dir/calls"
tool=\$2; test=\$(basename "\$5")
echo "========= COMPUTE-SANITIZER"
for i in \$(seq 1 30); do echo "test output line \$i"; done
if [[ \$tool == racecheck && \$test == softmax_test ]]; then
  echo "========= Error: Race reported between Write access at k+0x10 in softmax_v0"
  echo "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"
  echo "[  PASSED  ] 6 tests."; sleep 2; exit 9
fi
[[ \$tool == racecheck && \$test == gemm_test ]] && sleep 30
sleep 2
echo "========= ERROR SUMMARY: 0 errors"
echo "[  PASSED  ] 6 tests."
echo "[  SKIPPED ] 2 tests, listed below:"
echo "[  SKIPPED ] fam.M1_seed1"
F
chmod +x "$dir/bin/fake-sanitizer"

start=$SECONDS
COMPUTE_SANITIZER="$dir/bin/fake-sanitizer" SANITIZER_LIMIT=5 bash "$script" "$build" "$dir/out" > "$dir/stdout" 2>&1 ||
  fail "exit $?: $(tail -5 "$dir/stdout")"
elapsed=$((SECONDS - start))
log=$dir/out/sanitizer.log
[[ -f $log ]] || fail "no sanitizer.log"

# Which tests each tool got.
grep -q -- '--tool memcheck .*gemm_test --kopt_quick --gtest_filter=v0\.\*:fam\.\*:sel\.\*:fam_p0\.\*:vendor\.\*$' \
  "$dir/calls" || fail "gemm memcheck filter: $(cat "$dir/calls")"
grep -q -- '--tool racecheck .*gemm_test --kopt_quick --gtest_filter=v0\.\*:fam\.\*:sel\.\*:fam_p0\.\*$' "$dir/calls" ||
  fail "gemm racecheck filter (no baseline under racecheck): $(cat "$dir/calls")"
grep -q 'broken' "$dir/calls" && fail "an EXPECT_FAILURE variant was run: $(cat "$dir/calls")"
grep -q 'host_mm' "$dir/calls" && fail "a host kernel was run"
(($(wc -l < "$dir/calls") == 4)) || fail "want 4 runs: $(cat "$dir/calls")"

# The log: a fixed order (manifests sorted by path, memcheck then racecheck),
# the reports, each run's exit status; the whole output kept.
mapfile -t heads < <(grep '^== ' "$log" | sed -E 's/.*--tool ([a-z]+) ([a-z_]+) .*/\2.\1/')
[[ "${heads[*]}" == "gemm.memcheck gemm.racecheck softmax.memcheck softmax.racecheck" ]] ||
  fail "order: ${heads[*]}"
grep -A6 'racecheck softmax' "$log" | grep -q 'Error: Race reported between Write access' || fail "softmax's report not in the log"
grep -A6 'racecheck softmax' "$log" | grep -q '^exit 9 ' || fail "softmax racecheck: want exit 9"
grep -A6 'racecheck gemm' "$log" | grep -q '^exit 124 ' || fail "gemm racecheck: want exit 124 (the limit)"
grep -A6 'memcheck softmax' "$log" | grep -q '^exit 0 ' || fail "softmax memcheck: want exit 0"
grep -A6 'memcheck softmax' "$log" | grep -q 'SKIPPED \] 2 tests' ||
  fail "softmax memcheck: the skipped count is not in the log"
grep -q 'SKIPPED \] fam' "$log" && fail "the log lists skipped tests one by one"
grep -q 'test output line 17' "$dir/out/sanitizer/softmax.racecheck.txt" || fail "whole output not kept"
grep -q 'test output line' "$log" && fail "the log holds test output, not only summaries"

# Side by side: four runs of 2, 2, 2 and 5 s (the limit) take well under
# their sum (11 s).
((elapsed < 9)) || fail "the runs did not go side by side: ${elapsed} s"

# Faults: each broken variant once, its verdict and exit status.
[[ $(grep -c '^== kopt optimize' "$dir/out/faults.log") == 5 ]] || fail "faults: $(cat "$dir/out/faults.log")"
grep -q 'gate broken_scale/fault: REJECT' "$dir/out/faults.log" || fail "faults: no verdict for fault"
echo "faults_and_sanitizer: all checks passed (${elapsed} s)"
