#!/usr/bin/env bash
# Configure-time scale check (issue: many kernels): generates a project with
# KERNELS host kernels x VARIANTS variants that add_subdirectory()s this
# repository, and times its configure (cold, then a re-configure).
# Usage: tools/scale_configure.sh [KERNELS=100] [VARIANTS=5] [WORK_DIR]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
kernels=${1:-100}; variants=${2:-5}; work=${3:-$(mktemp -d)}
mkdir -p "$work/src"
python3 - "$work" "$kernels" "$variants" "$repo" <<'PY'
import sys
work, kernels, variants, repo = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
# One source file per kernel, as a repository has them: the configure reads
# each source that an ENTRY names (to find its definition), so one file
# holding every kernel would make that read grow with the kernel count.
for i in range(kernels):
    with open(f"{work}/src/k{i}.cpp", "w") as f:
        f.write("#include <cstdint>\n")
        f.write(f"void k{i}_ref(const double* x, double* y, std::int64_t n) {{ for (std::int64_t e = 0; e < n; ++e) y[e] = x[e]; }}\n")
        for j in range(variants):
            f.write(f"void k{i}_v{j}(const float* x, float* y, std::int64_t n) {{ for (std::int64_t e = 0; e < n; ++e) y[e] = x[e]; }}\n")
lines = ["cmake_minimum_required(VERSION 3.25)", "project(scale LANGUAGES CXX)",
         "set(KernelOpt_ENABLE_CUDA OFF)", f'add_subdirectory("{repo}" kernelopt)', "include(KernelOpt)", "enable_testing()"]
for i in range(kernels):
    lines.append(f'kernel_opt_add_kernel(k{i} BACKEND host ARGS "in x f32[n]" "out y f32[n]" DIMS n '
                 f'SHAPES "n=1000" "n=4096" REFERENCE k{i}_ref REFERENCE_SOURCES src/k{i}.cpp '
                 f'REFERENCE_PRECISION f64 FLOPS "n" BYTES "8*n")')
    for j in range(variants):
        parent = f' PARENT v{j-1} HYPOTHESIS "copy: expect 1x"' if j else ""
        lines.append(f"kernel_opt_add_variant(k{i} v{j} SOURCES src/k{i}.cpp ENTRY k{i}_v{j}{parent})")
open(f"{work}/CMakeLists.txt", "w").write("\n".join(lines) + "\n")
PY
rm -rf "$work/build"
start=$(date +%s.%N); cmake -S "$work" -B "$work/build" -G Ninja > "$work/configure.log" 2>&1; end=$(date +%s.%N)
again_start=$(date +%s.%N); cmake "$work/build" > /dev/null 2>&1; again_end=$(date +%s.%N)
tests=$(ctest --test-dir "$work/build" -N | tail -1)
printf '%d kernels x %d variants: configure %.1f s (cold), %.1f s (re-configure); %s\n' "$kernels" "$variants" \
  "$(awk "BEGIN{print $end - $start}")" "$(awk "BEGIN{print $again_end - $again_start}")" "$tests"
