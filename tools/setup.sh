#!/usr/bin/env bash
# Makes this machine able to build and test KernelOpt. Every requirement is
# checked by trying it (the version CMake reports, a C++17 test compile, a
# scratch configure that finds the CMake packages), not by asking a package
# manager, so a machine that has everything some other way (CMake from pip,
# libraries built from source, no network) passes untouched. Only what is
# missing is installed: apt-get on Debian/Ubuntu (as root, or through sudo),
# pip for the optional cuobjdump.
#
#   tools/setup.sh [--check] [--browser] [--no-ccache]
#     --check    report only, install nothing; exit 0 when every required
#                item is present, 1 when one is missing
#     --no-ccache  ccache optional (tools/main.sh: its presets use no
#                compiler launcher; only the ci and asan presets need it)
#     --browser  also chromium, for the test kopt.report.html_renders_in_chromium
#                (it skips, saying why, without one); or KOPT_SETUP_BROWSER=1.
#                tools/test.sh (the CI command) passes it.
#
#   cmark-gfm (libcmark-gfm-dev, libcmark-gfm-extensions-dev) is optional:
#   installed when apt-get can, else kopt shows the report's notes as plain
#   text (the report says so). A failure to install it is not an error.
#
#   Optional items it tries to install (their tests skip, saying why,
#   without them): cuobjdump and nvdisasm (pip), Slurm and MUNGE (apt-get
#   slurm-wlm munge: the test scale.slurm starts a one-node Slurm on
#   localhost, docs/scale-out.md; KOPT_SETUP_SLURM=0 leaves them out).
#
#   KOPT_SETUP_PIP_BREAK_SYSTEM_PACKAGES=1
#                when pip refuses to install into an externally managed Python
#                (PEP 668), retry with --break-system-packages (--user when
#                not root). Without it the refusal is reported, not hidden.
#
# Exit status: 0 every required item present (after installing), 1 some
# required item missing, 2 usage error.
set -euo pipefail

readonly min_cmake=3.25
readonly presets_nvcc=/usr/local/cuda/bin/nvcc  # CMakePresets.json's CMAKE_CUDA_COMPILER

check_only=0
browser=${KOPT_SETUP_BROWSER:-0}
need_ccache=1
for arg in "$@"; do
  case $arg in
    --check) check_only=1 ;;
    --browser) browser=1 ;;
    --no-ccache) need_ccache=0 ;;
    -h | --help) sed -n '2,30s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "setup: unknown argument '$arg' (tools/setup.sh [--check] [--browser] [--no-ccache])" >&2; exit 2 ;;
  esac
done

say() { echo "setup: $*"; }
row() { printf '  %-16s %s\n' "$1" "$2"; }
have() { command -v "$1" >/dev/null 2>&1; }
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]; }

# ---- the checks: each marks its items ok or missing, with a line saying why --

declare -A status detail
required=(cmake ninja ccache cxx17 gtest benchmark nlohmann_json cli11 cuda)
optional=(cuobjdump cmark_gfm slurm browser)
if [ "$need_ccache" = 0 ]; then
  required=(cmake ninja cxx17 gtest benchmark nlohmann_json cli11 cuda)
fi
# What apt-get installs for each item (space-separated packages).
declare -A apt_package=(
  [cmake]=cmake [ninja]=ninja-build [ccache]=ccache [cxx17]=g++
  [gtest]=libgtest-dev [benchmark]=libbenchmark-dev [nlohmann_json]=nlohmann-json3-dev
  [cli11]=libcli11-dev
  [cmark_gfm]="pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev"
  [browser]=chromium)

mark() { status[$1]=$2; detail[$1]=$3; }

check_tools() {
  if have cmake; then
    local v
    v=$(cmake --version 2>/dev/null | sed -n '1s/^cmake version \([0-9][0-9.]*\).*/\1/p')
    if [ -n "$v" ] && version_ge "$v" "$min_cmake"; then
      mark cmake ok "cmake $v ($(command -v cmake))"
    else
      mark cmake missing "cmake ${v:-of unknown version} at $(command -v cmake): older than $min_cmake"
    fi
  else
    mark cmake missing "no cmake on PATH"
  fi
  if have ninja; then mark ninja ok "ninja $(ninja --version 2>/dev/null)"; else mark ninja missing "no ninja on PATH (the presets use Ninja)"; fi
  if have ccache; then mark ccache ok "ccache ($(command -v ccache))"; else mark ccache missing "no ccache on PATH (the ci preset's compiler launcher)"; fi
  if [ -x "$presets_nvcc" ]; then
    mark cuda ok "nvcc at $presets_nvcc"
  elif have nvcc; then
    mark cuda missing "nvcc is $(command -v nvcc), but the presets use $presets_nvcc"
  else
    mark cuda missing "no CUDA Toolkit: $presets_nvcc not found"
  fi
  local dir
  dir=$(bash "$(dirname "$0")/cuobjdump-path.sh" 2>/dev/null || true)
  if [ -n "$dir" ] && { [ -x "$dir/nvdisasm" ] || have nvdisasm; }; then
    mark cuobjdump ok "cuobjdump and nvdisasm in $dir"
  else
    mark cuobjdump missing "no cuobjdump/nvdisasm (PATH, CUDA Toolkit, pip): the <k>.static.* tests skip"
  fi
  if have slurmctld && have slurmd && have sbatch && have munged; then
    mark slurm ok "slurmctld, slurmd, sbatch and munged on PATH"
  else
    mark slurm missing "no Slurm or MUNGE (slurm-wlm, munge): scale.slurm skips"
  fi
  if have chromium || have chromium-browser; then
    mark browser ok "$(command -v chromium || command -v chromium-browser)"
  else
    mark browser missing "no chromium: kopt.report.html_renders_in_chromium skips"
  fi
}

# A scratch configure: a C++17 compile, then find_package as KernelOpt does.
check_packages() {
  local why=""
  if [ "${status[cmake]}" != ok ]; then why="needs cmake >= $min_cmake"
  elif [ "${status[ninja]}" != ok ] && ! have make; then why="needs ninja (or make) to configure"
  fi
  if [ -n "$why" ]; then
    for item in cxx17 gtest benchmark nlohmann_json cli11 cmark_gfm; do mark "$item" missing "not checked: $why"; done
    return
  fi
  local scratch out line
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/kopt-setup.XXXXXX")
  cat > "$scratch/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(kopt_setup_probe LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
include(CheckCXXSourceCompiles)
check_cxx_source_compiles("#include <optional>
#include <string_view>
int main() { std::optional<std::string_view> v; return v ? 1 : 0; }" KOPT_PROBE_CXX17)
find_package(GTest QUIET)
find_package(benchmark QUIET)
find_package(nlohmann_json 3.10 QUIET)
# As the top-level CMakeLists.txt finds cmark-gfm (the report's notes).
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(CMARK_GFM QUIET libcmark-gfm)
endif()
find_library(CMARK_GFM_EXT cmark-gfm-extensions HINTS ${CMARK_GFM_LIBRARY_DIRS})
find_path(CMARK_GFM_EXT_H cmark-gfm-core-extensions.h HINTS ${CMARK_GFM_INCLUDE_DIRS})
set(cmark_gfm 0)
if(CMARK_GFM_FOUND AND CMARK_GFM_EXT AND CMARK_GFM_EXT_H)
  set(cmark_gfm 1)
endif()
find_package(CLI11 CONFIG QUIET)
message(STATUS "kopt-probe:cxx17=${KOPT_PROBE_CXX17}:gtest=${GTest_FOUND}:benchmark=${benchmark_FOUND}:nlohmann_json=${nlohmann_json_FOUND}:cli11=${CLI11_FOUND}:cmark_gfm=${cmark_gfm}:compiler=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
CMAKE
  local generator=()
  [ "${status[ninja]}" = ok ] && generator=(-G Ninja)
  out=$(cmake -S "$scratch" -B "$scratch/build" "${generator[@]}" 2>&1) || true
  rm -rf "$scratch"
  line=$(grep -o 'kopt-probe:.*' <<< "$out" || true)
  if [ -z "$line" ]; then
    mark cxx17 missing "no working C++ compiler (a scratch configure failed: $(grep -m1 -iE 'error|could not' <<< "$out" || echo 'see cmake output'))"
    for item in gtest benchmark nlohmann_json cli11 cmark_gfm; do mark "$item" missing "not checked: needs a C++ compiler"; done
    return
  fi
  local compiler=${line##*:compiler=}
  if [[ $line == *cxx17=1* ]]; then mark cxx17 ok "$compiler"; else mark cxx17 missing "$compiler does not compile C++17"; fi
  local item found
  for item in gtest benchmark nlohmann_json cli11 cmark_gfm; do
    found=$(sed -n "s/.*:$item=\([^:]*\).*/\1/p" <<< "$line")
    case $found in
      1 | TRUE | ON) mark "$item" ok "found by find_package" ;;
      *) mark "$item" missing "find_package does not find it" ;;
    esac
  done
  [ "${status[nlohmann_json]}" = ok ] || detail[nlohmann_json]="find_package(nlohmann_json 3.10) does not find it"
  [ "${status[cmark_gfm]}" = ok ] && detail[cmark_gfm]="libcmark-gfm.pc and cmark-gfm-extensions found"
  [ "${status[cmark_gfm]}" = ok ] || detail[cmark_gfm]="libcmark-gfm (pkg-config) or libcmark-gfm-extensions not found"
}

check_all() { check_tools; check_packages; }

report() {
  local item
  for item in "${required[@]}"; do row "$item" "${status[$item]}: ${detail[$item]}"; done
  for item in "${optional[@]}"; do
    [ "$item" = browser ] && [ "$browser" != 1 ] && [ "${status[$item]}" != ok ] && continue
    row "$item" "${status[$item]} (optional): ${detail[$item]}"
  done
}

missing_required() {
  local item out=()
  for item in "${required[@]}"; do [ "${status[$item]}" = ok ] || out+=("$item"); done
  echo "${out[*]}"
}

# ---- installing -----------------------------------------------------------

# Sets root_prefix to what runs a command as root (nothing, or sudo); says
# so, and fails, when neither is possible.
root_prefix=()
can_be_root() {
  if [ "$(id -u)" = 0 ]; then
    root_prefix=()
  elif have sudo; then
    say "needs root for: $*; running it with sudo"
    root_prefix=(sudo)
  else
    say "needs root for: $*"
    say "run this script as root, or install sudo, or run that command as root yourself"
    return 1
  fi
}

apt_install() {
  if ! have apt-get; then
    say "no apt-get here: install these yourself: $*"
    return 1
  fi
  can_be_root "apt-get install $*" || return 1
  say "apt-get install $*"
  "${root_prefix[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
    || { say "apt-get update failed (no network?): cannot install $*"; return 1; }
  "${root_prefix[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" \
    || { say "apt-get install $* failed"; return 1; }
}

# pip, with a refusal said out loud (PEP 668: an externally managed Python).
pip_install() {
  if ! python3 -m pip --version >/dev/null 2>&1; then
    say "no pip for python3 (apt: python3-pip): cannot install $*"
    return 1
  fi
  say "pip install $*"
  local out
  if out=$(python3 -m pip install -q "$@" 2>&1); then return 0; fi
  if grep -q "externally-managed-environment" <<< "$out"; then
    if [ "${KOPT_SETUP_PIP_BREAK_SYSTEM_PACKAGES:-0}" = 1 ]; then
      local flags=(--break-system-packages)
      [ "$(id -u)" = 0 ] || flags+=(--user)
      say "pip refused (externally managed Python); retrying with ${flags[*]} (KOPT_SETUP_PIP_BREAK_SYSTEM_PACKAGES=1)"
      python3 -m pip install -q "${flags[@]}" "$@" && return 0
      say "pip install ${flags[*]} $* failed"
      return 1
    fi
    say "pip refused to install $* into this Python: it is externally managed (PEP 668)."
    say "  either allow it:  KOPT_SETUP_PIP_BREAK_SYSTEM_PACKAGES=1 bash tools/setup.sh"
    say "  or use a venv:    python3 -m venv ~/.venv/kopt && . ~/.venv/kopt/bin/activate && bash tools/setup.sh"
    say "                    (keep it active for tools/test.sh: tools/cuobjdump-path.sh asks python3)"
    return 1
  fi
  printf '%s\n' "$out" | grep -v "Running pip as the 'root' user" >&2 || true
  say "pip install $* failed"
  return 1
}

install_missing() {
  local item packages=()
  for item in cmake ninja ccache cxx17 gtest benchmark nlohmann_json cli11; do
    [ "$item" = ccache ] && [ "$need_ccache" = 0 ] && continue
    [ "${status[$item]}" = ok ] || packages+=("${apt_package[$item]}")
  done
  if ((${#packages[@]})); then
    apt_install "${packages[@]}" || true
    check_all
    if [ "${status[cmake]}" != ok ] && have cmake; then
      say "${detail[cmake]}: this system's cmake package is too old; install CMake >= $min_cmake"
      say "  from https://cmake.org/download/ or with pip (pip install 'cmake>=$min_cmake')"
    fi
  fi
  if [ "${status[cuobjdump]}" != ok ]; then
    # Optional: the static SASS checks skip without it.
    pip_install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm || say "cuobjdump not installed: the <k>.static.* tests will skip"
    check_tools
  fi
  if [ "${KOPT_SETUP_SLURM:-1}" = 1 ] && [ "${status[slurm]}" != ok ]; then
    # Optional: scale.slurm skips without them.
    apt_install slurm-wlm munge || say "Slurm not installed: the test scale.slurm will skip"
    check_tools
  fi
  if [ "$browser" = 1 ] && [ "${status[browser]}" != ok ]; then
    apt_install chromium || say "chromium not installed: kopt.report.html_renders_in_chromium will skip"
    check_tools
  fi
  if [ "${status[cmark_gfm]}" != ok ]; then
    # Optional: without it kopt shows the report's notes as plain text.
    local words
    read -ra words <<< "${apt_package[cmark_gfm]}"
    apt_install "${words[@]}" || say "cmark-gfm not installed: kopt will show the report's notes as plain text"
    check_packages
  fi
}

# ---- main -----------------------------------------------------------------

check_all
if ((check_only)); then
  report
  missing=$(missing_required)
  if [ -n "$missing" ]; then say "missing: $missing"; exit 1; fi
  say "every required item is present"
  exit 0
fi

install_missing
report
missing=$(missing_required)
if [ -n "$missing" ]; then
  [ "${status[cuda]}" = ok ] || say "the CUDA Toolkit is not installed by this script: get it from NVIDIA (the presets expect $presets_nvcc), or configure with -DKernelOpt_ENABLE_CUDA=OFF"
  say "still missing: $missing"
  exit 1
fi
have nvcc || say "nvcc is at $(dirname "$presets_nvcc") (add it to PATH to call it yourself)"
say "ready"
