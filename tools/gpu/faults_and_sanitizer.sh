#!/usr/bin/env bash
# Faults on the GPU become verdicts, and the example kernels run clean under
# compute-sanitizer. Writes under OUT_DIR:
#   faults.log     kopt optimize over tests/gpu/broken (good, then each broken
#                  variant, --no-profile): every one gets a record; the faulting
#                  one (illegal address) a REJECT naming it
#   sanitizer.log  compute-sanitizer memcheck and racecheck (SANITIZER_TOOLS)
#                  over every CUDA example kernel's correctness test on its
#                  quick shapes, SANITIZER_LIMIT (300) seconds each at most;
#                  exit 9: the tool reported an error, 124: the limit
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
# Every CUDA example kernel (every manifest under example_kernels whose
# backend is cuda), each tool: its correctness test on its quick shapes, every
# variant the test holds (families by their dispatch, i.e. their champions).
{
  for manifest in $(find "$build/example_kernels" -path '*/kernelopt/*/manifest.json' | sort); do
    [[ $(jq -r .backend "$manifest") == cuda ]] || continue
    kernel=$(jq -r .kernel "$manifest"); test=$(jq -r .executables.test "$manifest")
    for tool in ${SANITIZER_TOOLS:-memcheck racecheck}; do
      echo "== $san --tool $tool $kernel (quick shapes, ${SANITIZER_LIMIT:-300} s at most)"
      timeout "${SANITIZER_LIMIT:-300}" "$san" --tool "$tool" --error-exitcode 9 "$test" --kopt_quick 2>&1 |
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|Error|tests ran" | tail -5
      echo "exit ${PIPESTATUS[0]}"
    done
  done
} > "$out/sanitizer.log" 2>&1
cat "$out/sanitizer.log"
