#!/usr/bin/env bash
# The GEMM campaign on a GPU machine (issue 6): ceilings of this GPU, then
# one `optimize-gemm` iteration per variant without a record (each records,
# gates and rewrites the report), the static SASS checks, and everything
# the records and reports need, tarred for the trip back.
# Usage (repository root): tools/gpu/gemm_campaign.sh BUILD_DIR OUT_DIR [ITERATIONS]
set -uo pipefail
build=$1; out=$2; iterations=${3:-8}
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
nvidia-smi -L > "$out/device.txt"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu \
  --format=csv > "$out/nvidia-smi.csv"
ceilings=$(realpath "$out")/ceilings.json
if [[ -n ${KOPT_CEILINGS_FROM:-} ]]; then
  cp "$KOPT_CEILINGS_FROM" "$ceilings"  # measured earlier on this machine
else
  "$build/framework/src/kopt/kopt" ceilings --out "$ceilings" > "$out/ceilings.log" 2>&1
  echo "ceilings: exit $?"
fi
cmake "$build" -DKernelOpt_CEILINGS="$ceilings" > /dev/null
deadline=${KOPT_DEADLINE:-0}  # epoch seconds: start no iteration after it (0: none)
for i in $(seq "$iterations"); do
  if (( deadline > 0 && $(date +%s) > deadline )); then echo "deadline: stopping before iteration $i"; break; fi
  echo "=== optimize-gemm, iteration $i" >> "$out/optimize-gemm.log"
  cmake --build "$build" --target optimize-gemm >> "$out/optimize-gemm.log" 2>&1
  echo "iteration $i: exit $?"
  if tail -5 "$out/optimize-gemm.log" | grep -q "nothing to optimize"; then break; fi
done
if [[ -z ${KOPT_SKIP_CTEST:-} ]]; then
  ctest --test-dir "$build" -R '^gemm\.(static|correct)\.' -j 8 --output-on-failure > "$out/ctest-gemm.log" 2>&1
  echo "gemm static + correctness: exit $?"
fi
