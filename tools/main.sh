#!/usr/bin/env bash
# The main job: build the bundled example kernels and run one iteration of
# the optimization loop (kopt optimize) for each, from scratch, into a
# scratch records folder (<build>/main-job/records, emptied first): the
# committed records and reports are never touched, and two runs give the
# same result. Without a GPU the CUDA kernels' iterations stop after the
# GPU-free steps and say what they skipped; the host-backend example runs
# the whole loop. Ends with one line per kernel and the path of its report.
# The iterations time the quick shapes (QUICK_SHAPES: minutes for all four
# kernels on a GPU); KOPT_MAIN_FULL=1 times the declared SHAPES (the naive
# gemm alone then spends ~10 minutes under Nsight Compute).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh --no-ccache  # its presets use no compiler cache
export PATH="/usr/local/cuda/bin:$(bash tools/cuobjdump-path.sh):$PATH"
preset=${KOPT_PRESET:-default}
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
# The preset's binaryDir (following "inherits"), from CMakePresets.json.
build_dir=$(python3 - "$preset" <<'PY'
import json, sys
presets = {p["name"]: p for p in json.load(open("CMakePresets.json"))["configurePresets"]}
def binary_dir(name):
    p = presets[name]
    if "binaryDir" in p:
        return p["binaryDir"]
    parents = p.get("inherits", [])
    for parent in [parents] if isinstance(parents, str) else parents:
        found = binary_dir(parent)
        if found:
            return found
    return None
print((binary_dir(sys.argv[1]) or "build").replace("${sourceDir}/", "").replace("${sourceDir}", "."))
PY
)
build_dir=$(cd "$build_dir" && pwd)
kopt=$build_dir/framework/src/kopt/kopt
job=$build_dir/main-job
rm -rf "$job"
mkdir -p "$job/records"
tracked_before=$(git status --porcelain 2>/dev/null || true)

shapes=(--quick)
[[ ${KOPT_MAIN_FULL:-0} == 1 ]] && shapes=()
status=0
summary=()
for kernel in ${KOPT_KERNELS:-host_matmul softmax softmax_bf16 gemm}; do
  manifest=$(find "$build_dir/example_kernels" -path "*/kernelopt/$kernel/manifest.json" | head -1)
  if [[ -z $manifest ]]; then
    summary+=("$kernel: ERROR no manifest under $build_dir/example_kernels")
    status=1
    continue
  fi
  echo "=== $kernel: kopt optimize --manifest $manifest --records-dir $job/records"
  set +e
  "$kopt" optimize --manifest "$manifest" --records-dir "$job/records" "${shapes[@]}" 2>&1 | tee "$job/$kernel.log"
  rc=${PIPESTATUS[0]}
  set -e
  report=$job/records/$kernel/report/report.html
  gate=$(grep -m1 -oE "^gate $kernel/[A-Za-z0-9_]+: [A-Z]+" "$job/$kernel.log" || true)
  case $rc in
    0|1) outcome=${gate:-"exit $rc"} ;;
    77) outcome="skipped: $(grep -m1 '^SKIPPED:' "$job/$kernel.log" | sed 's/^SKIPPED: //')" ;;
    *) outcome="ERROR (exit $rc; log $job/$kernel.log)"; status=1 ;;
  esac
  summary+=("$kernel: $outcome; report $report")
done

echo
echo "=== main job summary (records in $job/records; logs in $job)"
printf '  %s\n' "${summary[@]}"
if [[ $(git status --porcelain 2>/dev/null || true) != "$tracked_before" ]]; then
  echo "main job: the working tree changed during the run (git status):"
  git status --short
  status=1
fi
exit "$status"
