#!/usr/bin/env bash
# tools/gpu/whole_suite.sh on a four-test CTest tree (no build, no GPU):
# a detached pass, its exit status, and a second part that runs only what
# the first did not pass or skip.
set -uo pipefail
script=$1; dir=$2
rm -rf "$dir"; mkdir -p "$dir/tree"
cat > "$dir/tree/CTestTestfile.cmake" <<'CT'
add_test(passes "true")
add_test(also_passes "true")
add_test(fails "false")
add_test(skips "sh" "-c" "exit 77")
set_tests_properties(skips PROPERTIES SKIP_RETURN_CODE 77)
CT
fail() { echo "FAIL: $*"; exit 1; }

bash "$script" "$dir/tree" start || fail "start"
bash "$script" "$dir/tree" wait 60; rc=$?
((rc == 1)) || fail "wait: exit $rc, want 1 (a test failed)"
log=$dir/tree/whole-suite/ctest.log
grep -qE 'Test +#3: fails .*Failed' "$log" || fail "part 1 log does not show 'fails' failed"
cp "$log" "$dir/part1.log"

bash "$script" "$dir/tree" start --skip-finished "$dir/part1.log" > "$dir/start2.out" || fail "start part 2"
grep -q "3 tests finished" "$dir/start2.out" || fail "part 2: $(cat "$dir/start2.out")"
bash "$script" "$dir/tree" wait 60; rc=$?
((rc == 1)) || fail "part 2 wait: exit $rc, want 1"
grep -qE '^ *1/1 Test +#3: fails ' "$log" || fail "part 2 ran more than the failed test: $(cat "$log")"
grep -q 'passes' "$log" && fail "part 2 ran a test that passed in part 1"

# Everything finished: nothing to start, exit 0.
sed -E 's/(Test +#3: fails .*)\*\*\*Failed/\1   Passed/' "$dir/part1.log" > "$dir/all.log"
bash "$script" "$dir/tree" start --skip-finished "$dir/all.log" > "$dir/start3.out" || fail "start part 3"
grep -q "nothing left to run" "$dir/start3.out" || fail "part 3: $(cat "$dir/start3.out")"
bash "$script" "$dir/tree" wait 10 || fail "part 3 wait: exit $?, want 0"
# --exclude leaves out tests by name. ctest counts -I's numbers among the
# tests -R/-E/-L select, so those cannot go with --skip-finished.
grep -E 'Test +#1: passes ' "$dir/part1.log" > "$dir/only1.log"
bash "$script" "$dir/tree" start --skip-finished "$dir/only1.log" --exclude '^also_' > "$dir/start4.out" ||
  fail "start part 4"
grep -q "2 left" "$dir/start4.out" || fail "part 4: $(cat "$dir/start4.out")"
bash "$script" "$dir/tree" wait 60
grep -qE 'Test +#3: fails ' "$log" && grep -qE 'Test +#4: skips ' "$log" || fail "part 4 did not run fails and skips: $(cat "$log")"
grep -qE 'also_passes|Test +#1:' "$log" && fail "part 4 ran an excluded or finished test: $(cat "$log")"
bash "$script" "$dir/tree" start --skip-finished "$dir/only1.log" -E fails > "$dir/start5.out" 2>&1; rc=$?
((rc == 2)) || fail "-E with --skip-finished: exit $rc, want 2"
grep -q -- "-E cannot go with --skip-finished" "$dir/start5.out" || fail "part 5: $(cat "$dir/start5.out")"
bash "$script" "$dir/tree" start --exclude '^(also_|fails)' > /dev/null || fail "start part 6"
bash "$script" "$dir/tree" wait 60 || fail "part 6 (--exclude alone) wait: exit $?, want 0"
grep -qE 'also_passes|fails' "$log" && fail "part 6 ran an excluded test: $(cat "$log")"
bash "$script" "$dir/no-such-build" start > "$dir/start6.out" 2>&1; rc=$?
((rc == 2)) && grep -q "no build folder" "$dir/start6.out" || fail "missing build folder: exit $rc, $(cat "$dir/start6.out")"

echo "whole_suite.sh: --exclude, the refused selection and a missing build folder checked"
echo "whole_suite.sh: detached pass, exit status and --skip-finished checked"
