#!/usr/bin/env bash
# The whole test suite on a GPU machine, every option on, in one ctest pass
# that outlives the device tool's per-command limit (issue 20, item 6).
#
#   tools/gpu/whole_suite.sh BUILD_DIR start [--skip-finished LOG]... [--exclude REGEX] [CTEST_ARGS...]
#       configures nothing: BUILD_DIR must be built (e.g. with
#       -DKernelOpt_BENCH_TESTS=ON). Starts `ctest -j JOBS` in its own
#       session, detached; its output goes to BUILD_DIR/whole-suite/ctest.log.
#       --skip-finished LOG: leave out every test that LOG (the ctest.log of
#       an earlier part, on another machine with the same tree) shows passed
#       or skipped, so that the parts together are one pass of the suite
#       (by test number, `ctest -I 0,0,0,N...`, which CMake 3.25 has).
#       --exclude REGEX: leave out the tests whose names match REGEX too.
#       With --skip-finished, CTEST_ARGS must not select tests (-R, -E, -L,
#       -LE): ctest counts -I's numbers among the tests those leave, so the
#       numbers would name other tests. Use --exclude instead.
#   tools/gpu/whole_suite.sh BUILD_DIR wait SECONDS
#       waits until that ctest ends or SECONDS pass, printing progress; exits
#       0 when it ended with every test passed or skipped, 1 when it ended
#       with a failure, 3 when it is still running.
#
# Environment: JOBS (default 8). CTest's resource spec (tests/resources)
# serialises the timing tests on each GPU; correctness tests share it.
set -uo pipefail
build=$(cd "$1" 2>/dev/null && pwd) || { echo "whole_suite: no build folder ${1:-} (build it first)" >&2; exit 2; }
mode=$2; shift 2
dir=$build/whole-suite
mkdir -p "$dir"
case $mode in
  start)
    # Its rc file says a run ended, even while its shell is still exiting.
    if [[ -f $dir/pid && ! -f $dir/rc ]] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
      echo "whole_suite: already running (pid $(cat "$dir/pid"))"; exit 0
    fi
    rm -f "$dir/rc" "$dir/ctest.log" "$dir/finished"
    finished_logs=(); exclude='^$'
    while [[ ${1:-} == --skip-finished || ${1:-} == --exclude ]]; do
      if [[ $1 == --exclude ]]; then exclude=$2; else finished_logs+=("$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); fi
      shift 2
    done
    for arg in "$@"; do
      if ((${#finished_logs[@]} > 0)) && [[ $arg =~ ^(-R|-E|-L|-LE|--tests-regex|--exclude-regex|--label-regex|--label-exclude)$ ]]; then
        echo "whole_suite: $arg cannot go with --skip-finished (ctest counts -I's numbers among the tests it selects); use --exclude REGEX" >&2
        exit 2
      fi
    done
    if ((${#finished_logs[@]} > 0)); then
      # Names of tests the earlier parts finished (passed or skipped).
      cat "${finished_logs[@]}" | sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .*(Passed|Skipped).*/\1/p' | sort -u > "$dir/skip-names"
      left=$(ctest --test-dir "$build" -N | sed -nE 's/^ *Test +#([0-9]+): ([^ ]+)$/\1 \2/p' |
        awk -v exclude="$exclude" 'NR == FNR { skip[$1] = 1; next } !($2 in skip) && $2 !~ exclude { printf ",%s", $1 }' "$dir/skip-names" -)
      echo "whole_suite: $(wc -l < "$dir/skip-names") tests finished in ${finished_logs[*]}; $(echo "$left" | tr -cd , | wc -c) left"
      if [[ -z $left ]]; then echo "whole_suite: nothing left to run"; echo 0 > "$dir/rc"; exit 0; fi
      set -- -I "0,0,0$left" "$@"
    elif [[ $exclude != '^$' ]]; then
      set -- -E "$exclude" "$@"
    fi
    date -u +%Y-%m-%dT%H:%M:%SZ > "$dir/started"
    setsid bash -c 'ctest --test-dir "$1" -j "$2" --output-on-failure "${@:4}" > "$3/ctest.log" 2>&1; echo $? > "$3/rc"; date -u +%Y-%m-%dT%H:%M:%SZ > "$3/finished"' \
      _ "$build" "${JOBS:-8}" "$dir" "$@" < /dev/null > /dev/null 2>&1 &
    echo $! > "$dir/pid"
    echo "whole_suite: started ctest -j ${JOBS:-8} (pid $!), log $dir/ctest.log"
    ;;
  wait)
    limit=${1:?seconds}; start=$(date +%s)
    last=0
    while [[ ! -f $dir/rc ]] && (( $(date +%s) - start < limit )); do
      sleep 2
      (( $(date +%s) - last < 20 )) && continue
      last=$(date +%s)
      done_n=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#' "$dir/ctest.log" 2>/dev/null)
      total=$(grep -m1 -oE '^ *[0-9]+/[0-9]+ Test' "$dir/ctest.log" 2>/dev/null | sed -E 's|.*/([0-9]+) Test|\1|')
      echo "$(date -u +%H:%M:%S) $done_n of ${total:-?} finished, $(grep -cE 'Test +#[0-9]+: .*\*\*\*(Failed|Timeout|Exception)' "$dir/ctest.log" 2>/dev/null) failed"
    done
    if [[ ! -f $dir/rc ]]; then echo "whole_suite: still running"; exit 3; fi
    [[ -f $dir/ctest.log ]] && tail -40 "$dir/ctest.log"
    (( $(cat "$dir/rc") == 0 )) && exit 0 || exit 1
    ;;
  *) echo "usage: $0 BUILD_DIR start [--skip-finished LOG]... [--exclude REGEX] [CTEST_ARGS...] | wait SECONDS" >&2; exit 2 ;;
esac
