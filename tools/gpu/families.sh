#!/usr/bin/env bash
# Families on a GPU machine (docs/sweeps.md, docs/scale-out.md "Families"),
# from a build with KernelOpt_EXAMPLE_FAMILIES=ON:
#   sweep    kopt sweep + kopt select of each FAMILY (kernel:variant) into
#            the kernel's RECORDS, then the build (the dispatch), then
#            `kopt optimize --variant` gates the dispatch like a variant
#   shards   the suite of SHARD_KERNEL as SHARDS shard processes at once on
#            this one GPU (the per-GPU claim serialises their benchmarks),
#            kopt merge --manifest, the merged champions against kopt
#            select's, `kopt overlap` over every benchmark JSON, and
#            merge --into-records into a scratch folder
#   ablate   kopt ablate of each of ABLATE (kernel:variant, a family
#            recorded by the sweep phase, docs/ablation.md "Families"):
#            each switchable method off in the champions, timed against them
# Usage: tools/gpu/families.sh BUILD_DIR OUT_DIR PHASE...
# Environment (defaults): FAMILIES ("gemm:v7 softmax_bf16:v4"),
#   SHARD_KERNEL (gemm), SHARD_FAMILY (v7), SHARDS (4), JOBS (nproc),
#   ABLATE (gemm:v8), ABLATE_REPETITIONS (3).
set -uo pipefail
build=$(cd "$1" && pwd); out=$2; shift 2
mkdir -p "$out"; out=$(cd "$out" && pwd)
kopt=$build/framework/src/kopt/kopt
families=${FAMILIES:-gemm:v7 softmax_bf16:v4}
shard_kernel=${SHARD_KERNEL:-gemm}; shard_family=${SHARD_FAMILY:-v7}; shards=${SHARDS:-4}
jobs=${JOBS:-$(nproc)}
manifest_of() { find "$build" -path "*/kernelopt/$1/manifest.json" -print -quit; }
records_of() { jq -r .records_dir "$(manifest_of "$1")"; }
stamp() { echo "[$(date -u +%H:%M:%S)] $*"; }
nvidia-smi --query-gpu=index,name,uuid,driver_version,pstate,clocks.sm,clocks.max.sm --format=csv > "$out/device.txt" 2>&1

sweep_phase() {
  for kv in $families; do
    local k=${kv%%:*} v=${kv##*:} m
    m=$(manifest_of "$k")
    stamp "sweep $k/$v"
    "$kopt" sweep --manifest "$m" --variant "$v" --jobs "$jobs" > "$out/sweep.$k.$v.log" 2>&1
    echo "sweep $k/$v: exit $?"
    tail -3 "$out/sweep.$k.$v.log"
    "$kopt" select --manifest "$m" --variant "$v" > "$out/select.$k.$v.log" 2>&1
    echo "select $k/$v: exit $?"
    cat "$out/select.$k.$v.log"
  done
  stamp "build (the dispatch)"
  cmake --build "$build" -j "$jobs" > "$out/build-dispatch.log" 2>&1
  echo "build: exit $?"
  for kv in $families; do
    local k=${kv%%:*} v=${kv##*:}
    stamp "optimize $k --variant $v"
    "$kopt" optimize --manifest "$(manifest_of "$k")" --variant "$v" > "$out/optimize.$k.$v.log" 2>&1
    echo "optimize $k/$v: exit $?"
    grep -E "^(gate|record|SKIPPED)" "$out/optimize.$k.$v.log"
  done
  mkdir -p "$out/sweeps"
  for kv in $families; do
    local k=${kv%%:*} v=${kv##*:}
    cp -r "$build"/*/kernelopt/"$k"/sweep/"$v" "$out/sweeps/$k.$v" 2>/dev/null ||
      cp -r "$(dirname "$(manifest_of "$k")")/sweep/$v" "$out/sweeps/$k.$v"
  done
}

shards_phase() {
  local m selection
  m=$(manifest_of "$shard_kernel")
  selection=$(records_of "$shard_kernel")/$shard_kernel/$shard_family.selection.json
  [[ -f $selection ]] || { echo "no selection $selection: run the sweep phase first"; return 1; }
  rm -rf "$out/shards" "$out/merged" "$out/installed"
  stamp "$shards shards of $shard_kernel at once"
  local pids=()
  for ((i = 0; i < shards; i++)); do
    "$kopt" shard run --manifest "$m" --shard "$i/$shards" --out "$out/shards" > "$out/shard$i.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do wait "${pids[$i]}"; echo "shard $i/$shards: exit $?"; done
  stamp "merge"
  "$kopt" merge "$out/shards" --manifest "$m" --out "$out/merged" > "$out/merge.log" 2>&1
  echo "merge: exit $?"
  cat "$out/merge.log"
  python3 - "$selection" "$out/merged" "$shard_kernel" "$shard_family" <<'PY' | tee "$out/champions.md"
import glob, json, sys
single = json.load(open(sys.argv[1]))
merged_files = glob.glob(f"{sys.argv[2]}/*/records/{sys.argv[3]}/{sys.argv[4]}.selection.json")
if len(merged_files) != 1:
    sys.exit(f"expected one merged selection, found {merged_files}")
merged = json.load(open(merged_files[0]))
def by_shape(sel):
    return {s["shape"]: s for s in sel["shapes"]}
a, b = by_shape(single), by_shape(merged)
print("| shape | champion (kopt select, one process) | champion (4 shards merged) | same | frontier (merged) |")
print("|---|---|---|---|---|")
same = True
for shape in a:
    ca, cb = a[shape]["champion"], b[shape]["champion"]
    frontier = ", ".join(f'{f["point"]} {f["ratio"]:.3f}' for f in b[shape].get("frontier", []))
    print(f"| {shape} | {ca} | {cb} | {'yes' if ca == cb else 'NO'} | {frontier} |")
    same &= ca == cb
fa = sorted(f["point"] for f in single.get("failed", []))
fb = sorted(f["point"] for f in merged.get("failed", []))
print(f"\nfailed points: one process {fa or 'none'}, merged {fb or 'none'}: {'same' if fa == fb else 'DIFFERENT'}")
print("champions:", "SAME" if same else "DIFFERENT")
PY
  stamp "overlap"
  mapfile -t benches < <(find "$out/shards" -name '*bench*.json' -type f | sort)
  echo "kopt overlap over ${#benches[@]} benchmark JSON files"
  "$kopt" overlap "${benches[@]}" > "$out/overlap.txt" 2>&1
  echo "overlap: exit $?"
  cat "$out/overlap.txt"
  "$kopt" merge "$out/shards" --manifest "$m" --out "$out/installed" --into-records \
    --records-dir "$out/installed-records" > "$out/install.log" 2>&1
  echo "merge --into-records (scratch records): exit $?"
  tail -5 "$out/install.log"
}

ablate_phase() {
  for kv in ${ABLATE:-gemm:v8}; do
    local k=${kv%%:*} v=${kv##*:} m
    m=$(manifest_of "$k")
    stamp "ablate $k/$v"
    "$kopt" ablate --manifest "$m" --variant "$v" --repetitions "${ABLATE_REPETITIONS:-3}" > "$out/ablate.$k.$v.log" 2>&1
    echo "ablate $k/$v: exit $?"
    sed -n '/^| method /,/^$/p' "$out/ablate.$k.$v.log"
    mkdir -p "$out/records/$k"
    cp "$(records_of "$k")/$k/$v.json" "$(records_of "$k")/$k/$v.selection.json" "$out/records/$k/" 2>/dev/null
  done
}

for phase in "$@"; do
  case $phase in
    sweep) sweep_phase ;;
    shards) shards_phase ;;
    ablate) ablate_phase ;;
    *) echo "unknown phase $phase (sweep, shards, ablate)"; exit 2 ;;
  esac
done
stamp done
