#!/usr/bin/env bash
# Builds and runs docs/getting-started.md as written (the page's last section
# describes this). Usage:
#   getting_started.sh PAGE KERNELOPT_SOURCE_DIR WORK_DIR CUDA_ARCHITECTURES
# The environment carries KERNELOPT_PREFIX (a KernelOpt installed from this
# tree) and whatever the page's commands should inherit (CUDACXX, CXX,
# CMAKE_GENERATOR, CMAKE_<LANG>_COMPILER_LAUNCHER).
set -euo pipefail
page=$1 src=$2 work=$3 arch=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "${KERNELOPT_PREFIX:-}" ] || fail "KERNELOPT_PREFIX is not set"

rm -rf "$work"
mkdir -p "$work/blocks" "$work/my_kernels"
# Every fenced block to blocks/NNN; blocks/index lists "NNN<TAB>info string".
awk -v dir="$work/blocks" '
  /^```/ {
    if (open) { open = 0; close(file); next }
    n++; file = sprintf("%s/%03d", dir, n)
    printf "%03d\t%s\n", n, substr($0, 4) >> (dir "/index")
    printf "" > file; open = 1; next
  }
  open { print > file }
  END { if (open) { print "unterminated code block" > "/dev/stderr"; exit 1 } }
' "$page"

runs=() fetchcontent=""
while IFS=$'\t' read -r n info; do
  if [[ $info =~ title=\"([^\"]+)\" ]]; then
    name=${BASH_REMATCH[1]}
    [[ $name =~ ^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$ && $name != *..* ]] || fail "bad file name '$name'"
    [ ! -e "$work/my_kernels/$name" ] || fail "'$name' is shown twice"
    mkdir -p "$(dirname "$work/my_kernels/$name")"
    cp "$work/blocks/$n" "$work/my_kernels/$name"
    echo "file: $name"
  elif [ "$info" = "sh run" ]; then
    runs+=("$work/blocks/$n")
  elif [ "$info" = "cmake fetchcontent" ]; then
    fetchcontent="$work/blocks/$n"
  fi
done < "$work/blocks/index"
[ -f "$work/my_kernels/CMakeLists.txt" ] || fail "the page shows no CMakeLists.txt"
((${#runs[@]})) || fail "the page has no 'sh run' block"
[ -n "$fetchcontent" ] || fail "the page has no 'cmake fetchcontent' block"

# Every KernelOpt_* name the page uses exists in KernelOpt's CMake code or
# the package config it installs
# (KernelOpt_OPTIMIZE_VARIANT_<k>: its prefix).
known=$(grep -ohE 'KernelOpt_[A-Za-z0-9_]+' "$src/CMakeLists.txt" "$src"/cmake/*.cmake "$src"/cmake/*.cmake.in "$src"/cmake/kernelopt/*.cmake | sort -u)
for name in $(grep -oE 'KernelOpt_[A-Za-z0-9_]+' "$page" | sort -u); do
  found=0
  while read -r k; do
    if [ "$name" = "$k" ] || { [[ $k == *_ ]] && [[ $name == "$k"* ]]; }; then found=1; break; fi
  done <<< "$known"
  ((found)) || fail "the page names $name, which KernelOpt's CMake code does not define"
done

# The commands, in order, in my_kernels/.
log="$work/run.log"
: > "$log"
for block in "${runs[@]}"; do
  echo "=== run: $(tr '\n' ';' < "$block")"
  set +e
  (cd "$work/my_kernels" && bash -e -x "$block") 2>&1 | tee -a "$log"
  status=${PIPESTATUS[0]}
  set -e
  ((status == 0)) || fail "a command block of the page failed (exit $status): $(cat "$block")"
done
grep -qE 'scale_cpu\.correct\.v0 \.+ +Passed' "$log" || fail "scale_cpu.correct.v0 did not pass"
grep -qE 'scale\.correct\.v0 \.+[* ]*(Passed|Skipped)' "$log" || fail "scale.correct.v0 neither passed nor skipped"
[ -f "$work/my_kernels/records/scale_cpu/v0.json" ] || fail "optimize-scale_cpu wrote no records/scale_cpu/v0.json"

# FetchContent instead of find_package: the same project must configure.
fc="$work/fetchcontent"
mkdir -p "$fc"
cp -r "$work/my_kernels/." "$fc/"
rm -rf "$fc/build" "$fc/records"
sed -E -e "s|^( *)GIT_REPOSITORY .*\$|\\1SOURCE_DIR \"$src\"|" -e 's|^( *)GIT_TAG +[^)]*||' \
  "$fetchcontent" > "$work/fetchcontent.cmake"
grep -q 'SOURCE_DIR' "$work/fetchcontent.cmake" || fail "the fetchcontent block has no GIT_REPOSITORY line"
awk -v snippet="$work/fetchcontent.cmake" '
  /^find_package\(KernelOpt / { while ((getline line < snippet) > 0) print line; skip = 1; replaced = 1; next }
  skip && /^include\(KernelOpt\)/ { skip = 0; next }
  { print }
  END { if (!replaced) { print "no find_package(KernelOpt ...) line" > "/dev/stderr"; exit 1 } }
' "$work/my_kernels/CMakeLists.txt" > "$fc/CMakeLists.txt"
echo "=== FetchContent: configure"
cmake -S "$fc" -B "$fc/build" "-DCMAKE_CUDA_ARCHITECTURES=$arch" > "$work/fetchcontent.log" 2>&1 \
  || { cat "$work/fetchcontent.log"; fail "the FetchContent form of the project does not configure"; }
echo "ok: the page's files build, its commands run, its FetchContent form configures"
