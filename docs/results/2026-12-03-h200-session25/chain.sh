#!/usr/bin/env bash
# Session 25's GPU chain (run from the repository root of the device's copy):
#   e: build kopt + gemm's executables; sweep v10's 1x2 points (p48, p49, p66, p67) with p5 and p23
#      (now 5 stages with TMA stores at N = 192); ncu on p49 and p23; cuBLAS's SASS through ncu's
#      source page (its nvjet kernels are not in libcublasLt's cubins where cuobjdump looks)
#   g: cuBLAS's tensor maps (docs/results/2026-12-03-h200-session25/tensormap_spy.cpp) next to v10_p49's; L2 throughput's breakdown
#      under ncu for p1, p49, p23 and cuBLAS; then, on a patched copy of v10's source (not committed),
#      p1/p5/p23/p49 timed with each L2 promotion of the operand maps (KOPT_EXP_PROMO 0-3)
#   h: after the promotion rule (64 B for ragged rows) and 64-byte C boxes: correctness of p1, p4, p5,
#      p23, p49, p53; those and cuBLAS timed at 2000x3000x1000; then (patched copies, not committed)
#      with 32-byte C boxes again, and with 128-byte promotion for ragged rows
#   j: v10 with its three method switches: its per-shape champions of f (p5, p19, p25) swept again,
#      selected, the dispatch built and gated, then kopt ablate --variant v10 (3 processes a side)
#   f: the whole v10 family: tools/gpu/families.sh sweep (sweep, select, dispatch build, optimize)
set -uo pipefail
B=build-gpu; R=$B/s25; mkdir -p "$R"
stamp() { echo "[$(date -u +%H:%M:%S)] $*" >> "$R/progress.txt"; }
K=$B/framework/src/kopt/kopt
stamp "start $1"
if [[ ! -f $B/build.ninja ]]; then
  nvidia-smi --query-gpu=index,name,uuid,driver_version,pstate,clocks.sm,clocks.max.sm --format=csv > "$R/device-$1.txt" 2>&1
  source tools/gpu/deps.sh unpack > "$R/deps.txt" 2>&1
  cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DKernelOpt_BENCH_TESTS=ON \
    -DKernelOpt_EXAMPLE_GEMM_CLUSTER=ON > "$R/configure.log" 2>&1; stamp "configure rc $?"
fi
M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
if [[ $1 == e ]]; then
  cmake --build $B -j 16 --target kopt gemm_kopt_test gemm_kopt_bench > "$R/build-e.log" 2>&1; stamp "build rc $?"
  M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
  $K sweep --manifest "$M" --variant v10 --point v10_p48 --point v10_p49 --point v10_p66 --point v10_p67 \
    --point v10_p23 --point v10_p5 --jobs 16 > "$R/sweep-e.log" 2>&1
  stamp "sweep rc $?"; mkdir -p "$R/sweep-e"; cp "$(dirname "$M")"/sweep/v10/*.json "$R/sweep-e/" 2>/dev/null
  BENCH=$(jq -r .executables.bench "$M"); mkdir -p "$R/ncu"
  for p in v10_p49 v10_p23; do
    timeout 120 ncu --clock-control none --profile-from-start off --set full "$BENCH" --kopt_profile \
      "--benchmark_filter=^gemm/$p/M=2000,N=3000,K=1000(/|\$)" > "$R/ncu/$p.details.txt" 2>&1
    stamp "ncu $p rc $?"
  done
  timeout 150 ncu --clock-control none --profile-from-start off -k regex:nvjet --section SourceCounters \
    --page source --print-source sass "$BENCH" --kopt_profile \
    "--benchmark_filter=^gemm/cublas/M=2000,N=3000,K=1000(/|\$)" > "$R/ncu/cublas.sass.txt" 2>&1
  stamp "ncu cublas sass rc $?"
fi
if [[ $1 == g ]]; then
  cmake --build $B -j 16 --target kopt gemm_kopt_test gemm_kopt_bench gemm_kopt_v10_p1 gemm_kopt_v10_p5 \
    gemm_kopt_v10_p23 gemm_kopt_v10_p49 > "$R/build-g.log" 2>&1; stamp "build rc $?"
  M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit); BENCH=$(jq -r .executables.bench "$M")
  CI=$(dirname "$(find /usr/local/cuda/ -name cupti.h -print -quit)"); CL=$(dirname "$(find /usr/local/cuda/ -name 'libcupti.so' -print -quit)")
  g++ -std=c++17 -shared -fPIC -I/usr/local/cuda/include -I"$CI" docs/results/2026-12-03-h200-session25/tensormap_spy.cpp -L"$CL" -lcupti \
    -Wl,-rpath,"$CL" -o $B/libtensormap_spy.so > "$R/spy-build.log" 2>&1; stamp "spy build rc $?"
  CUDA_INJECTION64_PATH=$PWD/$B/libtensormap_spy.so timeout 120 "$BENCH" \
    '--benchmark_filter=^gemm/(cublas|v10_p49|v10_p23)/M=2000,N=3000,K=1000(/|$)' > "$R/spy.txt" 2>&1
  stamp "spy rc $?"; mkdir -p "$R/ncu"
  for p in cublas v10_p1 v10_p49 v10_p23; do
    timeout 120 ncu --clock-control none --profile-from-start off \
      --metrics breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_requests.sum,lts__t_sectors.sum,lts__t_tag_requests.sum,gpu__time_duration.sum \
      "$BENCH" --kopt_profile "--benchmark_filter=^gemm/$p/M=2000,N=3000,K=1000(/|\$)" > "$R/ncu/$p.l2.txt" 2>&1
    stamp "ncu l2 $p rc $?"
  done
  sed -i 's/CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE/static_cast<CUtensorMapL2promotion>(std::getenv("KOPT_EXP_PROMO") ? std::atoi(std::getenv("KOPT_EXP_PROMO")) : 3), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE/; s/#include <climits>/#include <climits>\n#include <cstdlib>/' example_kernels/gemm/v10_cluster_pdl.cu
  grep -c KOPT_EXP_PROMO example_kernels/gemm/v10_cluster_pdl.cu > "$R/patch-count.txt"
  cmake --build $B -j 16 --target gemm_kopt_v10_p1 gemm_kopt_v10_p5 gemm_kopt_v10_p23 gemm_kopt_v10_p49 > "$R/build-g2.log" 2>&1
  stamp "patched build rc $?"
  for promo in 3 0 1 2 3; do
    KOPT_EXP_PROMO=$promo timeout 120 "$BENCH" '--benchmark_filter=^gemm/(v10_p1|v10_p5|v10_p23|v10_p49)/M=2000,N=3000,K=1000(/|$)' \
      > "$R/promo-$promo.txt" 2>&1; stamp "promo $promo rc $?"; cat "$R/promo-$promo.txt" >> "$R/promo-all.txt"
  done
  git checkout example_kernels/gemm/v10_cluster_pdl.cu 2>/dev/null || true
fi
if [[ $1 == h ]]; then
  P="v10_p1 v10_p4 v10_p5 v10_p23 v10_p49 v10_p53"; LIBS=$(for p in $P; do echo -n " gemm_kopt_$p"; done)
  cmake --build $B -j 16 --target kopt gemm_kopt_test gemm_kopt_bench $LIBS > "$R/build-h.log" 2>&1; stamp "build rc $?"
  M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit); BENCH=$(jq -r .executables.bench "$M")
  T=$(jq -r .executables.test "$M")
  timeout 240 "$T" "--gtest_filter=$(echo $P | sed 's/\([^ ]*\)/\1.*/g; s/ /:/g')" > "$R/test-h.txt" 2>&1
  stamp "test rc $?"; tail -3 "$R/test-h.txt" >> "$R/progress.txt"
  F="--benchmark_filter=^gemm/(cublas|$(echo $P | tr ' ' '|'))/M=2000,N=3000,K=1000(/|\$)"
  timeout 150 "$BENCH" "$F" > "$R/bench-h-c16-p64.txt" 2>&1; stamp "bench c16 p64 rc $?"
  S=example_kernels/gemm/v10_cluster_pdl.cu
  sed -i 's/^constexpr int kCBoxCols = 16;/constexpr int kCBoxCols = 8;/' $S; grep -c "kCBoxCols = 8;" $S >> "$R/progress.txt"
  cmake --build $B -j 16 --target $LIBS > "$R/build-h2.log" 2>&1; stamp "build c8 rc $?"
  timeout 150 "$BENCH" "$F" > "$R/bench-h-c8-p64.txt" 2>&1; stamp "bench c8 p64 rc $?"
  sed -i 's/^constexpr int kCBoxCols = 8;/constexpr int kCBoxCols = 16;/; s/: CU_TENSOR_MAP_L2_PROMOTION_L2_64B,/: CU_TENSOR_MAP_L2_PROMOTION_L2_128B,/' $S
  grep -c "PROMOTION_L2_128B" $S >> "$R/progress.txt"
  cmake --build $B -j 16 --target $LIBS > "$R/build-h3.log" 2>&1; stamp "build c16 p128 rc $?"
  timeout 150 "$BENCH" "$F" > "$R/bench-h-c16-p128.txt" 2>&1; stamp "bench c16 p128 rc $?"
  sed -i 's/: CU_TENSOR_MAP_L2_PROMOTION_L2_128B,/: CU_TENSOR_MAP_L2_PROMOTION_L2_64B,/' $S
fi
if [[ $1 == j ]]; then
  save() { tar -C $B -czf "$OUT/s25-$1.tgz" s25; }
  cmake --build $B -j 16 --target kopt gemm_kopt_test gemm_kopt_bench > "$R/build-j.log" 2>&1; stamp "build rc $?"
  M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit); mkdir -p "$R/j"
  $K sweep --manifest "$M" --variant v10 --point v10_p5 --point v10_p19 --point v10_p25 --jobs 16 > "$R/j/sweep.log" 2>&1
  stamp "sweep rc $?"; $K select --manifest "$M" --variant v10 > "$R/j/select.log" 2>&1; stamp "select rc $?"; save j
  # the selection makes the next build configure again and add the dispatch (gemm_kopt_v10)
  cmake --build $B -j 16 --target gemm_kopt_test gemm_kopt_bench > "$R/j/build-dispatch.log" 2>&1
  cmake --build $B -j 16 --target gemm_kopt_v10 >> "$R/j/build-dispatch.log" 2>&1; stamp "build dispatch rc $?"; M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit)
  timeout 150 $K optimize --manifest "$M" --variant v10 --no-profile > "$R/j/optimize.log" 2>&1; stamp "optimize rc $?"; save j
  # what is left of DEADLINE seconds (the device budget) goes to the ablation; the tar must still fit
  left=$(( ${DEADLINE:-400} - SECONDS - 5 )); stamp "ablate gets $left s"
  (( left > 30 )) && timeout $left $K ablate --manifest "$M" --variant v10 --repetitions 3 > "$R/j/ablate.log" 2>&1
  stamp "ablate rc $?"
  cp example_kernels/gemm/records/gemm/v10.json example_kernels/gemm/records/gemm/v10.selection.json "$R/j/" 2>/dev/null
  cp example_kernels/gemm/records/gemm/report/v10.* "$R/j/" 2>/dev/null
fi
if [[ $1 == f ]]; then
  # the sweep builds the points; families.sh's own full build then builds the dispatch (and the rest)
  cmake --build $B -j 16 --target kopt gemm_kopt_test gemm_kopt_bench > "$R/build-f.log" 2>&1; stamp "build rc $?"
  FAMILIES=gemm:v10 timeout 500 tools/gpu/families.sh $B "$R/v10" sweep > "$R/families.log" 2>&1; stamp "families rc $?"
  cp example_kernels/gemm/records/gemm/v10*.json "$R/v10/" 2>/dev/null
  cp example_kernels/gemm/records/gemm/report/v10.sweep.* "$R/v10/" 2>/dev/null
  M=$(find $B -path '*/kernelopt/gemm/manifest.json' -print -quit); BENCH=$(jq -r .executables.bench "$M")
  timeout 60 "$BENCH" '--benchmark_filter=^gemm/(cublas|v10)/' > "$R/v10/bench-dispatch-vs-cublas.txt" 2>&1
  stamp "bench dispatch rc $?"
fi
stamp "done $1"
tar -C $B -czf "$OUT/s25-$1.tgz" s25
