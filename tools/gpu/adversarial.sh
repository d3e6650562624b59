#!/usr/bin/env bash
# The adversarial suite on a GPU machine (tests/adversarial/cuda): every
# cheat through `kopt optimize`, refused for its rule; the controls gated 5
# more times; the identical copy and the ~5 % better variant 20 times each.
# Writes the tables (adversarial.cuda.md, adversarial.cuda_pair.md), the
# ctest logs and the device name to OUT_DIR.
#
# Usage (from the repository root, after building with tests):
#   tools/gpu/adversarial.sh BUILD_DIR OUT_DIR [TEST...]
# Tests default to "adversarial.cuda adversarial.cuda_pair".
set -euo pipefail
if [[ $# -lt 2 ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
fi
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2
tests=("$@")
[[ ${#tests[@]} -eq 0 ]] && tests=(adversarial.cuda adversarial.cuda_pair)

{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=index,name,driver_version,pstate,clocks.sm,clocks.max.sm,temperature.gpu --format=csv 2>&1 || true
} > "$out/device.txt"
status=0
for t in "${tests[@]}"; do
  echo "== $t"
  start=$(date +%s)
  if ctest --test-dir "$build" -R "^${t//./\\.}\$" --output-on-failure > "$out/$t.log" 2>&1; then
    echo "   passed ($(( $(date +%s) - start )) s)"
  else
    echo "   FAILED ($(( $(date +%s) - start )) s): see $out/$t.log"
    status=1
  fi
  cp "$build/tests/adversarial/cuda/$t.md" "$out/" 2>/dev/null || echo "   no table for $t"
  [[ -f $out/$t.md ]] && cat "$out/$t.md"
done
exit $status
