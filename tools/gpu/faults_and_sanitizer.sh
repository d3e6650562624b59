#!/usr/bin/env bash
# Faults on the GPU become verdicts, and the example kernels run clean under
# compute-sanitizer. Writes under OUT_DIR:
#   faults.log     kopt optimize over tests/gpu/broken (good, then each broken
#                  variant, --no-profile): every one gets a record; the faulting
#                  one (illegal address) a REJECT naming it
#   sanitizer.log  compute-sanitizer memcheck and racecheck over the example
#                  kernels' correctness tests on their quick shapes
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
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  for run in "softmax memcheck" "softmax racecheck" "gemm memcheck"; do
    set -- $run
    test=$(find "$build/example_kernels" -type f -name "${1}_kopt_test" -perm -u+x | head -1)
    echo "== $san --tool $2 $1 (quick shapes, ${SANITIZER_LIMIT:-100} s at most)"
    timeout "${SANITIZER_LIMIT:-100}" "$san" --tool "$2" --error-exitcode 9 "$test" --kopt_quick 2>&1 |
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|Error|tests ran" | tail -5
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/sanitizer.log" 2>&1
cat "$out/sanitizer.log"
