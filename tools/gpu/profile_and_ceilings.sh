#!/usr/bin/env bash
# GPU steps of the profiling work (docs/profiling.md), run from the
# repository root after a build with examples:
#   kopt ceilings; the static tests; ncu's tensor metrics on this chip;
#   kopt profile of every softmax variant and of the cuBLAS gemm baseline.
# Usage: tools/gpu/profile_and_ceilings.sh BUILD_DIR OUT_DIR
set -uo pipefail
build=$1; out=$2
mkdir -p "$out"
kopt=$build/framework/src/kopt/kopt
nvidia-smi -L > "$out/device.txt"
"$kopt" ceilings --out "$out/ceilings.json" > "$out/ceilings.log" 2>&1; echo "ceilings: exit $?"
ctest --test-dir "$build" -L static -j8 > "$out/ctest-static.log" 2>&1; echo "static: exit $?"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
"$ncu" --query-metrics --chip gh100 2>/dev/null | grep -i -E 'gmma|tensor_op|pipe_tensor' > "$out/ncu-tensor-metrics.txt"
for k in softmax gemm; do
  variants=""; [ "$k" = gemm ] && variants="--variant cublas --variant v0"
  "$kopt" profile --manifest "$build/example_kernels/$k/kernelopt/$k/manifest.json" $variants \
    --out "$out/profile-$k.json" --ceilings "$out/ceilings.json" --specs-dir framework/specs \
    > "$out/profile-$k.log" 2>&1
  echo "profile $k: exit $?"
done
