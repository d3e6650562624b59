#!/usr/bin/env bash
# One GPU-machine call of the "Verdicts you can trust" evidence: build (if
# needed), then the named phases, each writing under OUT_DIR:
#   suite       ctest -L kernel-opt (every example and test kernel on the GPU)
#   adversarial tools/gpu/adversarial.sh ... adversarial.cuda
#   pair        tools/gpu/adversarial.sh ... adversarial.cuda_pair
#   validation  tools/gpu/bench_validation.sh (ncu agreement, stability)
#   full        ctest over every test (unit, host, cmake-api, GPU)
#   optimize    kopt optimize on softmax (quick shapes) into fresh records:
#               v0 then v1, profile and static checks included
# Usage: tools/gpu/verdicts_run.sh BUILD_DIR OUT_DIR PHASE...
set -uo pipefail
build=$1; out=$2; shift 2
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
export PATH="/usr/local/cuda/bin:$PATH"
if [[ ! -f $build/build.ninja ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
fi
start=$(date +%s)
cmake --build "$build" -j 16 > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
for phase in "$@"; do
  start=$(date +%s)
  case $phase in
    suite) timeout "${PHASE_LIMIT:-400}" ctest --test-dir "$build" -L kernel-opt -j 8 --output-on-failure > "$out/suite.log" 2>&1
           echo "suite: exit $? ($(( $(date +%s) - start )) s)"; tail -25 "$out/suite.log" ;;
    adversarial) timeout "${PHASE_LIMIT:-400}" "$here/adversarial.sh" "$build" "$out/adv" adversarial.cuda; echo "adversarial: exit $? ($(( $(date +%s) - start )) s)" ;;
    pair) timeout "${PHASE_LIMIT:-400}" "$here/adversarial.sh" "$build" "$out/adv" adversarial.cuda_pair; echo "pair: exit $? ($(( $(date +%s) - start )) s)" ;;
    validation) KOPT_VALIDATION_RUNS=${KOPT_VALIDATION_RUNS:-3} timeout "${PHASE_LIMIT:-400}" "$here/bench_validation.sh" "$build" "$out/validation" env ncu runs summary > "$out/validation.log" 2>&1
                echo "validation: exit $? ($(( $(date +%s) - start )) s)"; tail -40 "$out/validation/summary.md" ;;
    full) timeout "${PHASE_LIMIT:-400}" ctest --test-dir "$build" -j 8 --output-on-failure > "$out/full.log" 2>&1
          echo "full: exit $? ($(( $(date +%s) - start )) s)"; grep -E "tests passed|tests failed|\*\*\*|Failed|Not Run" "$out/full.log" | tail -25 ;;
    optimize)
      kopt=$build/framework/src/kopt/kopt
      manifest=$(find "$build" -path "*example_kernels/softmax/kernelopt/softmax/manifest.json" | head -1)
      mkdir -p "$out/optimize/records"
      python3 -c "import json,sys; m=json.load(open(sys.argv[1])); m['records_dir']=sys.argv[2]; json.dump(m, open(sys.argv[3],'w'), indent=2)" \
        "$manifest" "$out/optimize/records" "$out/optimize/manifest.json"
      for i in 1 2; do
        timeout "${PHASE_LIMIT:-400}" "$kopt" optimize --manifest "$out/optimize/manifest.json" --quick > "$out/optimize/run$i.log" 2>&1
        echo "optimize run $i: exit $? ($(( $(date +%s) - start )) s)"; tail -30 "$out/optimize/run$i.log"
      done ;;
    *) echo "unknown phase $phase" ;;
  esac
  # Tables are written as the suites go: keep them even when a phase was cut short.
  mkdir -p "$out/adv" && cp "$build"/tests/adversarial/cuda/*.md "$out/adv/" 2>/dev/null
done
