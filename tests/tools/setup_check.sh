#!/usr/bin/env bash
# tools/setup.sh's decisions, without installing anything:
#   real      --check on this machine: one line per requirement, exit 0
#             exactly when none is missing
#   old       a CMake older than 3.25 is missing, and the packages are not
#             checked without one
#   no_root   not root, no sudo: it says it needs root and exits 1
#   sudo      not root, sudo present: apt-get runs through sudo
#   browser   --browser (what tools/test.sh passes) installs chromium too
#   cmark     cmark-gfm is optional: installed on its own, and a failure to
#             install it is said and leaves it out of the missing items
#   pep668    pip refuses (externally managed): said, not hidden; with
#             KOPT_SETUP_PIP_BREAK_SYSTEM_PACKAGES=1 retried with
#             --break-system-packages --user
# Usage: setup_check.sh SETUP_SH WORK_DIR
set -uo pipefail
setup=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "FAIL [$case]: $*"; failures=$((failures + 1)); }
expect_line() { grep -qE -- "$1" "$work/$case.out" || fail "no line matching '$1'"; }

# A PATH of the few utilities setup.sh uses, plus fakes written per case.
fake_bin() {
  local bin="$work/$case.bin"
  mkdir -p "$bin"
  for tool in bash sort head sed grep mktemp rm cat dirname env tr; do
    ln -sf "$(command -v "$tool")" "$bin/$tool"
  done
  echo "$bin"
}
fake() {  # fake NAME SCRIPT-BODY
  printf '#!%s\n%s\n' "$(command -v bash)" "$2" > "$work/$case.bin/$1"
  chmod +x "$work/$case.bin/$1"
}
run_setup() {  # run_setup EXPECTED_STATUS ARGS...
  local expected=$1; shift
  "$(command -v bash)" "$setup" "$@" > "$work/$case.out" 2>&1
  local status=$?
  [ "$status" = "$expected" ] || fail "exit $status, expected $expected"
  sed "s/^/  [$case] /" "$work/$case.out"
}

case=real
bash "$setup" --check > "$work/$case.out" 2>&1
status=$?
sed "s/^/  [$case] /" "$work/$case.out"
for item in cmake ninja ccache cxx17 gtest benchmark nlohmann_json cli11 cuda; do
  expect_line "^  $item +(ok|missing): "
done
expect_line "^  cmark_gfm +(ok|missing) \(optional\): "
if grep -qE '^  [a-z0-9_]+ +missing: ' "$work/$case.out"; then
  [ "$status" = 1 ] || fail "a required item is missing, but the exit status is $status"
else
  [ "$status" = 0 ] || fail "nothing required is missing, but the exit status is $status"
fi

case=old
bin=$(fake_bin)
fake cmake 'echo "cmake version 3.20.0"'
fake id 'echo 0'
PATH=$bin run_setup 1 --check
expect_line "^  cmake +missing: cmake 3\.20\.0 at .*: older than 3\.25"
expect_line "^  gtest +missing: not checked: needs cmake >= 3\.25"
expect_line "^setup: missing: cmake ninja ccache cxx17 gtest benchmark nlohmann_json cli11( cuda)?$"

case=no_root
bin=$(fake_bin)
fake id 'echo 1000'
fake apt-get 'echo "apt-get ran as user: $*" >> '"$work/$case.apt"
PATH=$bin run_setup 1
expect_line "^setup: needs root for: apt-get install cmake ninja-build"
expect_line "^setup: run this script as root, or install sudo"
expect_line "^setup: still missing: cmake"
[ ! -e "$work/$case.apt" ] || fail "apt-get ran without root"

case=sudo
bin=$(fake_bin)
fake id 'echo 1000'
fake sudo 'echo "sudo $*" >> '"$work/$case.sudo"'; "$@"'
fake apt-get 'true'
PATH=$bin run_setup 1
expect_line "^setup: needs root for: apt-get install cmake ninja-build ccache g\+\+ libgtest-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev; running it with sudo"
expect_line "^setup: apt-get install pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev$"
grep -q "apt-get install -y -qq --no-install-recommends cmake" "$work/$case.sudo" 2>/dev/null || fail "apt-get install did not run through sudo"
grep -q chromium "$work/$case.sudo" 2>/dev/null && fail "chromium was installed without --browser"

case=browser
bin=$(fake_bin)
fake id 'echo 1000'
fake sudo 'echo "sudo $*" >> '"$work/$case.sudo"'; "$@"'
fake apt-get 'true'
PATH=$bin run_setup 1 --browser
grep -q "apt-get install -y -qq --no-install-recommends chromium" "$work/$case.sudo" 2>/dev/null ||
  fail "--browser did not install chromium"

case=cmark
bin=$(fake_bin)
fake id 'echo 0'
fake apt-get 'case "$*" in *libcmark-gfm-dev*) exit 100;; esac; true'
PATH=$bin run_setup 1
expect_line "^setup: apt-get install pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev failed$"
expect_line "^setup: cmark-gfm not installed: kopt will show the report's notes as plain text$"
expect_line "^  cmark_gfm +missing \(optional\): "
grep -E "^setup: still missing: " "$work/$case.out" | grep -q cmark && fail "cmark_gfm counted as a missing required item"

case=pep668
bin=$(fake_bin)
fake id 'echo 1000'
fake apt-get 'true'
fake sudo '"$@"'
fake python3 'case "$*" in
  "-m pip --version") echo "pip 23.0";;
  "-m pip install -q --break-system-packages --user"*) echo "$*" >> '"$work/$case.pip"';;
  "-m pip install"*) echo "error: externally-managed-environment" >&2; exit 1;;
  *) exit 1;;
esac'
PATH=$bin run_setup 1
expect_line "^setup: pip refused to install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm into this Python: it is externally managed \(PEP 668\)"
expect_line "KOPT_SETUP_PIP_BREAK_SYSTEM_PACKAGES=1"
expect_line "python3 -m venv"
[ ! -e "$work/$case.pip" ] || fail "pip ran with --break-system-packages without the opt-in"
KOPT_SETUP_PIP_BREAK_SYSTEM_PACKAGES=1 PATH=$bin run_setup 1
expect_line "retrying with --break-system-packages --user"
grep -q "nvidia-cuda-cuobjdump" "$work/$case.pip" 2>/dev/null || fail "the opted-in retry did not run"

if ((failures)); then echo "$failures failure(s)"; exit 1; fi
echo "ok: tools/setup.sh checks, refuses and reports as documented"
