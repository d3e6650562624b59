#!/usr/bin/env bash
# The adopted cuda-samples kernels (tests/adopt/cuda_samples) through the
# whole loop on a GPU machine, from scratch: KernelOpt installed from
# BUILD_DIR (already built), the project configured and built against it
# with find_package as any consumer would, then `kopt optimize` repeated for
# each kernel until every declared variant has a record, into a scratch
# records folder (the tree is never touched), and `kopt report`.
#
# Usage: tools/gpu/adopt.sh BUILD_DIR OUT_DIR
# OUT_DIR/<kernel>/report.md, report.html   the reports
# OUT_DIR/records/<kernel>/v*.json          the records they are made of
# OUT_DIR/logs/                             install, configure, build, every iteration
# OUT_DIR/summary.txt                       one line per iteration, times
# Profiling is off (--no-profile: Nsight Compute would take minutes);
# KOPT_ADOPT_PROFILE=1 turns it on. Exit 0 when every iteration ran (an
# ACCEPT or a REJECT is an outcome, not a failure).
set -uo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd) || exit 2
mkdir -p "$2/logs" && out=$(cd "$2" && pwd)
work=$build/adopt-cuda-samples  # prefix, project build, records: scratch, emptied first
rm -rf "$work" && mkdir -p "$work/records"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$SECONDS
summary=()
note() { summary+=("$1"); echo "$1"; }
cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" | head -1; }
run_step() {  # name, command...: logged; the log's tail on failure
  local name=$1 start=$SECONDS
  shift
  if ! "$@" > "$out/logs/$name.log" 2>&1; then
    tail -40 "$out/logs/$name.log"
    note "$name: FAILED (log $out/logs/$name.log)"
    printf '%s\n' "${summary[@]}" > "$out/summary.txt"
    exit 1
  fi
  note "$name: $((SECONDS - start)) s"
}

run_step install cmake --install "$build" --prefix "$work/prefix"
configure=(-S "$root/tests/adopt/cuda_samples" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release
  "-DCMAKE_PREFIX_PATH=$work/prefix" "-DCMAKE_CUDA_COMPILER=$(cached CMAKE_CUDA_COMPILER)"
  "-DCMAKE_CUDA_ARCHITECTURES=$(cached CMAKE_CUDA_ARCHITECTURES)")
launcher=$(cached CMAKE_CUDA_COMPILER_LAUNCHER)
if [[ -n $launcher ]]; then
  configure+=("-DCMAKE_CUDA_COMPILER_LAUNCHER=$launcher" "-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher")
fi
run_step configure cmake "${configure[@]}"
run_step build cmake --build "$work/build" -j "$(nproc)"

kopt=$work/prefix/bin/kopt
profile=(--no-profile)
[[ ${KOPT_ADOPT_PROFILE:-0} == 1 ]] && profile=()
status=0
for kernel in reduction transpose transpose_copy; do
  manifest=$work/build/kernelopt/$kernel/manifest.json
  for i in $(seq 1 12); do  # more than any kernel's variants: the loop ends on "nothing to optimize"
    log=$out/logs/$kernel.$i.log
    start=$SECONDS
    "$kopt" optimize --manifest "$manifest" --records-dir "$work/records" "${profile[@]}" > "$log" 2>&1
    rc=$?
    if grep -q '^nothing to optimize' "$log"; then
      rm -f "$log"
      break
    fi
    gate=$(grep -m1 -oE "^gate $kernel/[A-Za-z0-9_]+: [A-Z]+" "$log" || true)
    case $rc in
      0|1) [[ -n $gate ]] || status=1; note "${gate:-$kernel: no gate line (exit $rc)} ($((SECONDS - start)) s, log $log)" ;;
      *) note "$kernel: exit $rc, stopping this kernel (log $log)"; tail -20 "$log"; status=1; break ;;
    esac
  done
  if ! "$kopt" report --manifest "$manifest" --records-dir "$work/records" --out-dir "$out/$kernel" \
      > "$out/logs/$kernel.report.log" 2>&1; then
    note "$kernel: kopt report failed (log $out/logs/$kernel.report.log)"
    status=1
  fi
  mkdir -p "$out/records/$kernel"
  cp "$work/records/$kernel"/*.json "$out/records/$kernel/" 2>/dev/null
done
note "total: $((SECONDS - t0)) s; reports in $out/<kernel>/report.md"
printf '%s\n' "${summary[@]}" > "$out/summary.txt"
exit "$status"
