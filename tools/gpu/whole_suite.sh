#!/usr/bin/env bash
# The whole test suite on a GPU machine, every option on, in one ctest pass
# that outlives the device tool's per-command limit (issue 20, item 6).
#
#   tools/gpu/whole_suite.sh BUILD_DIR start [CTEST_ARGS...]
#       configures nothing: BUILD_DIR must be built (e.g. with
#       -DKernelOpt_BENCH_TESTS=ON). Starts `ctest -j JOBS` in its own
#       session, detached; its output goes to BUILD_DIR/whole-suite/ctest.log.
#   tools/gpu/whole_suite.sh BUILD_DIR wait SECONDS
#       waits until that ctest ends or SECONDS pass, printing progress; exits
#       0 when it ended with every test passed or skipped, 1 when it ended
#       with a failure, 3 when it is still running.
#
# Environment: JOBS (default 8). CTest's resource spec (tests/resources)
# serialises the timing tests on each GPU; correctness tests share it.
set -uo pipefail
build=$(cd "$1" && pwd); mode=$2; shift 2
dir=$build/whole-suite
mkdir -p "$dir"
case $mode in
  start)
    if [[ -f $dir/pid ]] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
      echo "whole_suite: already running (pid $(cat "$dir/pid"))"; exit 0
    fi
    rm -f "$dir/rc" "$dir/ctest.log"
    date -u +%Y-%m-%dT%H:%M:%SZ > "$dir/started"
    setsid bash -c 'ctest --test-dir "$1" -j "$2" --output-on-failure "${@:4}" > "$3/ctest.log" 2>&1; echo $? > "$3/rc"; date -u +%Y-%m-%dT%H:%M:%SZ > "$3/finished"' \
      _ "$build" "${JOBS:-8}" "$dir" "$@" < /dev/null > /dev/null 2>&1 &
    echo $! > "$dir/pid"
    echo "whole_suite: started ctest -j ${JOBS:-8} (pid $!), log $dir/ctest.log"
    ;;
  wait)
    limit=${1:?seconds}; start=$(date +%s)
    while [[ ! -f $dir/rc ]] && (( $(date +%s) - start < limit )); do
      sleep 20
      done_n=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#' "$dir/ctest.log" 2>/dev/null)
      total=$(grep -m1 -oE '^ *[0-9]+/[0-9]+ Test' "$dir/ctest.log" 2>/dev/null | sed -E 's|.*/([0-9]+) Test|\1|')
      echo "$(date -u +%H:%M:%S) $done_n of ${total:-?} finished, $(grep -cE '\*\*\*Failed|\(Failed\)|\*\*\*Timeout|Exception' "$dir/ctest.log" 2>/dev/null) failed"
    done
    if [[ ! -f $dir/rc ]]; then echo "whole_suite: still running"; exit 3; fi
    tail -40 "$dir/ctest.log"
    (( $(cat "$dir/rc") == 0 )) && exit 0 || exit 1
    ;;
  *) echo "usage: $0 BUILD_DIR start [CTEST_ARGS...] | wait SECONDS" >&2; exit 2 ;;
esac
