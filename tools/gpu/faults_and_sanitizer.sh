#!/usr/bin/env bash
# Faults on the GPU become verdicts, and the example kernels run clean under
# compute-sanitizer. Writes under OUT_DIR:
#   faults.log     kopt optimize over tests/gpu/broken (good, then each broken
#                  variant, --no-profile): every one gets a record; the faulting
#                  one (illegal address) a REJECT naming it
#   sanitizer.log  compute-sanitizer memcheck and racecheck (SANITIZER_TOOLS)
#                  over every CUDA example kernel's correctness tests (its
#                  variants, a family's built points while it has no
#                  selection; its baselines under memcheck) on its quick
#                  shapes, SANITIZER_LIMIT (300) seconds each at most,
#                  SANITIZER_JOBS at once (0, the default: all at once);
#                  each run's whole output in sanitizer/KERNEL.TOOL.txt;
#                  exit 9: the tool reported an error, 124: the limit;
#                  COMPUTE_SANITIZER names the tool (default: from PATH)
# Usage: tools/gpu/faults_and_sanitizer.sh BUILD_DIR OUT_DIR
set -uo pipefail
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
export PATH="/usr/local/cuda/bin:$PATH"
kopt="$build/framework/src/kopt/kopt"
manifest="$build/tests/gpu/broken/kernelopt/broken_scale/manifest.json"
rm -rf "$build/tests/gpu/broken/records"
{
  for v in good wrong unwritten oob fault; do
    echo "== kopt optimize broken_scale/$v"
    timeout 300 "$kopt" optimize --manifest "$manifest" --variant "$v" --no-profile 2>&1 | grep -E "gate |FAIL|ended with|record ->"
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/faults.log" 2>&1
cat "$out/faults.log"
san=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
limit=${SANITIZER_LIMIT:-300}
# Every CUDA example kernel (every manifest under example_kernels whose
# backend is cuda), each tool, on its quick shapes: the tests its ctest
# correctness tests run, i.e. its variants (a family by its dispatch: its
# champions; before its first selection, its points that `kopt sweep` has
# built) and, under memcheck, its baselines. Left out: the other sweep
# points (a point's library exists only after `kopt sweep`), variants declared
# EXPECT_FAILURE (their tests fail by declaration), and baselines under
# racecheck (library code such as cuBLAS synchronises in ways racecheck
# cannot follow, and a report there is not this project's to fix).
# The runs check correctness, not time, so they run side by side
# (SANITIZER_JOBS at once, all by default). Each run's whole output is kept
# in sanitizer/KERNEL.TOOL.txt; sanitizer.log lists, per run, the summary
# lines, the first reports and the exit status, in a fixed order.
filter_of() { # MANIFEST TOOL
  local baselines='.baselines[]' selection library point points=()
  [[ $2 == memcheck ]] || baselines='empty'
  # A family with no selection yet has no dispatch: its tests skip. The
  # points that `kopt sweep` has built run in its place, so a family's
  # kernels are checked before its first selection too.
  while IFS=$'\t' read -r selection library point; do
    [[ ! -f $selection && -f $library ]] && points+=("$point.*")
  done < <(jq -r '.variants[] | select(.expect_failure == null and .family != null) | .family as $f |
                  ($f.points // [])[] | select(.skip == null) | [$f.selection, .library, .name] | @tsv' "$1")
  jq -r "[.variants[] | select(.expect_failure == null) | .name + \".*\"] + \$ARGS.positional +
         [$baselines | select(.expect_failure == null) | .name + \".*\"] | join(\":\")" "$1" --args "${points[@]}"
}
sanitize() { # KERNEL TOOL TEST FILTER
  local full="$out/sanitizer/$1.$2.txt" start=$SECONDS status
  echo "== $san --tool $2 $1 --gtest_filter=$4 (quick shapes, $limit s at most)"
  timeout "$limit" "$san" --tool "$2" --error-exitcode 9 "$3" --kopt_quick "--gtest_filter=$4" > "$full" 2>&1
  status=$?
  grep -E "^\[  (PASSED  |FAILED  |SKIPPED )\] [0-9]+ tests?|ERROR SUMMARY|RACECHECK SUMMARY|tests ran" "$full"
  grep -E "^=========  *(Error|Invalid|Race|Program hit|Warning)" "$full" | head -20
  echo "exit $status after $((SECONDS - start)) s (whole output: sanitizer/$1.$2.txt)"
}
parts="$out/sanitizer.parts"
rm -rf "$parts" "$out/sanitizer" && mkdir -p "$parts" "$out/sanitizer"
n=0
for manifest in $(find "$build/example_kernels" -path '*/kernelopt/*/manifest.json' | sort); do
  [[ $(jq -r .backend "$manifest") == cuda ]] || continue
  kernel=$(jq -r .kernel "$manifest"); test=$(jq -r .executables.test "$manifest")
  for tool in ${SANITIZER_TOOLS:-memcheck racecheck}; do
    while (( ${SANITIZER_JOBS:-0} > 0 && $(jobs -rp | wc -l) >= SANITIZER_JOBS )); do wait -n; done
    n=$((n + 1))
    sanitize "$kernel" "$tool" "$test" "$(filter_of "$manifest" "$tool")" > "$parts/$(printf %02d "$n").txt" 2>&1 &
  done
done
wait
cat "$parts"/*.txt > "$out/sanitizer.log" && rm -rf "$parts"
cat "$out/sanitizer.log"
