#!/usr/bin/env bash
# The whole test suite: set-up (chromium included), then configure, build and ctest for the ci
# preset and again for the asan preset (the host C++ under AddressSanitizer
# and UBSan, docs/reliability.md). On a machine without a GPU the GPU tests
# report "skipped" with the reason; nothing GPU-bound passes.
#   KOPT_PRESET=<p>  the first preset instead of ci
#   KOPT_ASAN=0      skip the asan pass
# Each test runs in one pass: with the asan pass, the first pass builds
# everything but the GoogleTest executables and runs only the tests the
# sanitized build leaves out (labels fuzz and unsanitized: their own builds,
# speed verdicts ASan distorts); without it, everything and every test.
# Both passes run even when the first one's tests fail; the exit status is
# non-zero if either failed.
set -euo pipefail
cd "$(dirname "$0")/.."
# --browser: chromium too, for kopt.report.html_renders_in_chromium (the
# report at 1280 px in a real browser); without it that test skips.
bash tools/setup.sh --browser
export PATH="/usr/local/cuda/bin:$(bash tools/cuobjdump-path.sh):$PATH"
jobs=$(nproc)
# One compiler cache for both passes: paths under the checkout are hashed
# relative to it, so the asan pass reuses the ci pass's nvcc objects.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
# ccache otherwise hashes the working directory of every compile with debug
# information (the asan pass's -g1, the fuzz build's line tables), so a clone
# in another folder (CI's) could reuse none of them. The price: such an
# object's debug information names the build folder it was first compiled
# in; the sanitizers' reports show the same file:line.
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
presets=("${KOPT_PRESET:-ci}")
if [ "${KOPT_ASAN:-1}" != 0 ] && [ "${presets[0]}" != asan ]; then
  presets+=(asan)
fi
# A failed test's output, printed again after both passes: CI shows only the
# tail of the log, and the first pass's failures would scroll out of it.
# ctest keeps every test's output in Testing/Temporary/LastTest.log.
report_failures() {  # <build dir>
  local tmp=$1/Testing/Temporary
  [ -s "$tmp/LastTestsFailed.log" ] || return 0
  local name
  while IFS=: read -r _ name; do
    echo "-- failed in $1: $name (the last 60 lines of its output in $tmp/LastTest.log)"
    awk -v name="$name" '
      !on && length($0) > length(name) + 6 && substr($0, length($0) - length(name) - 5) == "Test: " name { on = 1 }
      on { print }
      on && index($0, "\"" name "\" end time:") == 1 { exit }' "$tmp/LastTest.log" | tail -n 60
  done < "$tmp/LastTestsFailed.log"
}
status=0
failed=()  # the build folders of the passes whose tests failed
configure_log=$(mktemp)
trap 'rm -f "$configure_log"' EXIT
for preset in "${presets[@]}"; do
  echo "== preset $preset ($(date -u +%H:%M:%S) UTC)"
  # Before the asan pass: only the labels its test preset excludes, and no
  # GoogleTest executables (the asan pass builds and runs them).
  filter=()
  units=ON
  if ((${#presets[@]} > 1)) && [ "$preset" != asan ]; then
    filter=(-L '^(fuzz|unsanitized)$')
    units=OFF
  fi
  cmake --preset "$preset" -DKernelOpt_BUILD_UNIT_TESTS="$units" | tee "$configure_log"
  # The preset's binaryDir, as configure reports it (build-<preset>, or build for default).
  build_dir=$(sed -n 's/^-- Build files have been written to: //p' "$configure_log" | tail -n 1)
  cmake --build --preset "$preset" -j "$jobs"
  if ! ctest --preset "$preset" -j "$jobs" "${filter[@]}"; then
    status=1
    failed+=("$build_dir")
  fi
done
for dir in "${failed[@]}"; do
  report_failures "$dir"
done
echo "== done ($(date -u +%H:%M:%S) UTC), status $status"
exit "$status"
