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
"$build/framework/src/kopt/kopt" ceilings --out "$ceilings" > "$out/ceilings.log" 2>&1
echo "ceilings: exit $?"
cmake "$build" -DKernelOpt_CEILINGS="$ceilings" > /dev/null
for i in $(seq "$iterations"); do
  echo "=== optimize-gemm, iteration $i" >> "$out/optimize-gemm.log"
  cmake --build "$build" --target optimize-gemm >> "$out/optimize-gemm.log" 2>&1
  echo "iteration $i: exit $?"
  if tail -5 "$out/optimize-gemm.log" | grep -q "nothing to optimize"; then break; fi
done
ctest --test-dir "$build" -R '^gemm\.(static|correct)\.' -j 8 --output-on-failure > "$out/ctest-gemm.log" 2>&1
echo "gemm static + correctness: exit $?"
