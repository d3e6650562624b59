#!/usr/bin/env bash
# Session 9 GPU pipeline (untracked). The tree is copied into build-s9/src so that
# the device tool's re-sync of the working tree between calls leaves the sweep's
# records alone.
#   start  : copy, configure, build, then the pipeline in the background
#   wait N : wait up to N s, then pack results into $OUT
#   kill   : stop the pipeline
set -uo pipefail
root=${S9_ROOT:-$PWD}
s9=$root/build-s9
src=$s9/src
log=$s9/pipeline.log
pack() {
  mkdir -p "$OUT"
  (cd "$s9" && tar czf "$OUT/s9.tgz" --exclude='src/build-gpu/example_kernels' --exclude='src/build-gpu/framework' \
     --exclude='src/build-gpu/tests' --exclude='*.o' --exclude='*.so' --exclude='*.a' \
     pipeline.log out src/example_kernels/*/records src/build-gpu/whole-suite 2>/dev/null)
  ls -la "$OUT"
}
case $1 in
  start)
    mkdir -p "$s9/out"
    if [[ ! -d $src ]]; then
      mkdir -p "$src"
      tar --exclude=./build-s9 --exclude='./build-*' -cf - . | (cd "$src" && tar xf -)
    fi
    cd "$src"
    nvidia-smi --query-gpu=index,name,uuid,driver_version,pstate,clocks.sm,clocks.max.sm --format=csv | tee "$s9/out/device.txt"
    source tools/gpu/deps.sh unpack
    t0=$(date +%s)
    cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
      -DKernelOpt_BENCH_TESTS=ON > "$s9/out/configure.log" 2>&1 || { tail -30 "$s9/out/configure.log"; exit 1; }
    cmake --build build-gpu -j 16 > "$s9/out/build.log" 2>&1 || { grep -m5 -B2 -A20 "error" "$s9/out/build.log"; exit 1; }
    echo "configure+build $(( $(date +%s) - t0 )) s"
    export CMAKE_PREFIX_PATH
    S9_ROOT=$root setsid bash "$root/gpu-s9.sh" pipeline < /dev/null > "$log" 2>&1 &
    echo "pipeline pid $!"
    ;;
  pipeline)
    cd "$src"
    stamp() { echo "[$(date -u +%H:%M:%S)] $*"; }
    export PATH="$PATH"
    for phase in ${S9_PHASES:-sweep ablate calB suite}; do
      stamp "== $phase"
      case $phase in
        sweep) FAMILIES="gemm:v8 softmax_bf16:v5" JOBS=16 tools/gpu/families.sh build-gpu "$s9/out/families" sweep ;;
        ablate) tools/gpu/families.sh build-gpu "$s9/out/families" ablate ;;
        v4) FAMILIES="softmax_bf16:v4" JOBS=16 tools/gpu/families.sh build-gpu "$s9/out/families-v4" sweep ;;
        optv5) m=$(find build-gpu -path "*/kernelopt/softmax_bf16/manifest.json" -print -quit)
               build-gpu/framework/src/kopt/kopt optimize --manifest "$m" --variant v5 > "$s9/out/optimize.softmax_bf16.v5.log" 2>&1
               echo "optimize v5: exit $?"; grep -E "^(gate|  (ok|FAIL))" "$s9/out/optimize.softmax_bf16.v5.log" ;;
        calBs) CAL_PARTS=B CAL_REAL="softmax" tools/gpu/gate_calibration.sh build-gpu "$s9/out/calB-softmax" 20 ;;
        calB) CAL_PARTS=B CAL_REAL="softmax softmax_bf16" tools/gpu/gate_calibration.sh build-gpu "$s9/out/calB" 20 ;;
        suite) JOBS=8 tools/gpu/whole_suite.sh build-gpu start \
                 --skip-finished docs/results/2026-11-25-h200-session7/whole-suite-part1.log \
                 --skip-finished docs/results/2026-11-25-h200-session7/whole-suite-part2.log
               tools/gpu/whole_suite.sh build-gpu wait 100000 ;;
      esac
      stamp "== $phase done ($?)"
    done
    stamp "PIPELINE DONE"
    ;;
  wait)
    limit=$2; t0=$(date +%s)
    while (( $(date +%s) - t0 < limit )) && ! grep -q "PIPELINE DONE" "$log" 2>/dev/null; do sleep 5; done
    tail -60 "$log"
    pack
    ;;
  kill)
    pkill -f "gpu-s9.sh pipeline"; pkill -f "kopt"; pkill ctest; sleep 2; tail -20 "$log"; pack ;;
esac
