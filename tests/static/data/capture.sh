#!/usr/bin/env bash
# Regenerates the golden cuobjdump outputs of tests/static/data from the
# kernels in kernels/: compiled as CMake compiles CUDA_ARCHITECTURES 90a
# (and one object for 80 + 90a), then `cuobjdump -sass` and
# `cuobjdump -res-usage`. Needs nvcc (CUDA 13) and cuobjdump + nvdisasm
# (the CUDA toolkit's, or pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm).
# Review the diff: the tests' expectations (counts, registers) follow the code.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || echo "$(bash "$here/../../../tools/cuobjdump-path.sh")/cuobjdump")}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sm90a="--generate-code=arch=compute_90a,code=[compute_90a,sm_90a]"
for k in shuffle_vector mma_sync wgmma_tma spill_local; do
  # ptxas -v: ptxas's own spill count, the ground truth the SASS cannot give.
  "$nvcc" -c "$sm90a" -Xptxas -v -o "$work/$k.o" "$here/kernels/$k.cu" 2>&1 |
    grep -E "Function properties|spill|Used" >> "$work/ptxas.txt"
  "$cuobjdump" -sass "$work/$k.o" > "$here/$k.sass.txt"
  "$cuobjdump" -res-usage "$work/$k.o" > "$here/$k.res-usage.txt"
done
"$nvcc" -c --generate-code=arch=compute_80,code=sm_80 "$sm90a" -o "$work/multi_arch.o" "$here/kernels/shuffle_vector.cu"
"$cuobjdump" -sass "$work/multi_arch.o" > "$here/multi_arch.sass.txt"
"$cuobjdump" -res-usage "$work/multi_arch.o" > "$here/multi_arch.res-usage.txt"
# A header defining two kernels, shared by two variants (kernels/shared/):
# compiled with -lineinfo as the generated variant targets are; the line
# table as nvdisasm -gi prints it for each cubin; this directory is written
# @DATA@ in all three (the tests put it back where they need it).
for v in variant_a variant_b; do
  "$nvcc" -c -lineinfo "$sm90a" -o "$work/$v.o" "$here/kernels/shared/$v.cu"
  "$cuobjdump" -sass "$work/$v.o" | sed "s|$here|@DATA@|g" > "$here/$v.sass.txt"
  "$cuobjdump" -res-usage "$work/$v.o" | sed "s|$here|@DATA@|g" > "$here/$v.res-usage.txt"
  mkdir "$work/$v" && (cd "$work/$v" && "$cuobjdump" -xelf all "$work/$v.o" > /dev/null)
  "$(dirname "$cuobjdump")/nvdisasm" -gi "$work/$v"/*.cubin | sed "s|$here|@DATA@|g" > "$here/$v.line-info.txt"
done
mv "$work/ptxas.txt" "$here/ptxas-v.txt"
{ "$nvcc" --version | tail -2; "$cuobjdump" --version | tail -2; } > "$here/versions.txt"
