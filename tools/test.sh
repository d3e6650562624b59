#!/usr/bin/env bash
# The whole test suite: set-up, configure, build, ctest. On a machine without
# a GPU the GPU tests report "skipped" with the reason; nothing GPU-bound passes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
export PATH="/usr/local/cuda/bin:$(bash tools/cuobjdump-path.sh):$PATH"
jobs=$(nproc)
preset=${KOPT_PRESET:-ci}
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$jobs"
ctest --preset "$preset" -j "$jobs"
