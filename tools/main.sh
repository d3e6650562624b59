#!/usr/bin/env bash
# The main job: build the bundled example kernels and run one iteration of
# the optimization loop (optimize-<kernel>) for each. Without a GPU the CUDA
# kernels' loops stop after the GPU-free steps and say what they skipped; the
# host-backend example runs the whole loop.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
export PATH="/usr/local/cuda/bin:$(bash tools/cuobjdump-path.sh):$PATH"
preset=${KOPT_PRESET:-default}
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
build_dir=$(cmake --preset "$preset" -N 2>/dev/null | sed -n 's/^ *binaryDir *= *//p')
build_dir=${build_dir:-build}
status=0
for kernel in ${KOPT_KERNELS:-host_matmul softmax softmax_bf16 gemm}; do
  echo "=== optimize-$kernel"
  cmake --build --preset "$preset" --target "optimize-$kernel" || status=$?
done
exit "$status"
