#!/usr/bin/env bash
# How much one sweep point's work grows when N points run at once, one per
# GPU (issue 22: where the time of a sweep over several GPUs goes). Runs a
# point's correctness test, then its benchmark, as `kopt sweep` runs them:
# first one copy on GPU 0, then N copies at once on GPUs 0..N-1, for each N
# in COUNTS. Each process's wall time and CPU time (user + system, from
# wait4) are recorded, the benchmark's phases (kopt.phases_s per shape) and
# GoogleTest's time per trial; the table says which part grows.
# Needs the point built (`kopt sweep --build-only`).
# Usage (repository root): tools/gpu/sweep_contention.sh BUILD_DIR OUT_DIR
# Environment (defaults): KERNEL (gemm), POINT (v9_p9), COUNTS ("1 2 4",
#   counts above the number of GPUs are left out), REPEAT (1), VISIBLE (one:
#   each process sees its GPU alone, CUDA_VISIBLE_DEVICES=<g>; all: it sees
#   every GPU and is given its own as CTest gives it, CTEST_RESOURCE_GROUP_0_GPUS).
set -uo pipefail
build=$(cd "$1" && pwd); out=$2
mkdir -p "$out"; out=$(cd "$out" && pwd)
kernel=${KERNEL:-gemm}; point=${POINT:-v9_p9}; counts=${COUNTS:-1 2 4}; repeat=${REPEAT:-1}
manifest=$(find "$build" -path "*/kernelopt/$kernel/manifest.json" -print -quit)
[[ -n $manifest ]] || { echo "sweep_contention: no manifest of $kernel under $build" >&2; exit 2; }
test_exe=$(jq -r .executables.test "$manifest"); bench_exe=$(jq -r .executables.bench "$manifest")
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
nproc > "$out/cores.txt"
VISIBLE=${VISIBLE:-one} python3 - "$out" "$kernel" "$point" "$test_exe" "$bench_exe" "$gpus" "$repeat" $counts <<'PY'
import json, os, re, subprocess, sys, time
out, kernel, point, test_exe, bench_exe = sys.argv[1:6]
gpus, repeat = int(sys.argv[6]), int(sys.argv[7])
counts = [int(c) for c in sys.argv[8:] if int(c) <= gpus]

def launch(argv, gpu, log):
    if os.environ["VISIBLE"] == "all":
        env = dict(os.environ, CTEST_RESOURCE_GROUP_COUNT="1", CTEST_RESOURCE_GROUP_0="gpus",
                   CTEST_RESOURCE_GROUP_0_GPUS=f"id:{gpu},slots:1")
    else:
        env = dict(os.environ, CUDA_VISIBLE_DEVICES=str(gpu))
    f = open(log, "w")
    p = subprocess.Popen(argv, env=env, stdout=f, stderr=subprocess.STDOUT)
    return p, f

def run_at_once(stage, n, rep):
    procs = []
    for g in range(n):
        tag = f"{stage}-n{n}-r{rep}-gpu{g}"
        if stage == "correctness":
            argv = [test_exe, f"--gtest_filter={point}.*", f"--kopt_results={out}/{tag}.json"]
        else:
            argv = [bench_exe, f"--benchmark_filter=^{kernel}/({point})/",
                    f"--benchmark_out={out}/{tag}.json", "--benchmark_out_format=json"]
        start = time.monotonic()
        p, f = launch(argv, g, f"{out}/{tag}.log")
        procs.append((tag, p, f, start))
    rows = []
    pending = {p.pid: (tag, p, f, start) for tag, p, f, start in procs}
    while pending:
        pid, status, usage = os.wait4(-1, 0)
        if pid not in pending:
            continue
        tag, p, f, start = pending.pop(pid)
        f.close()
        rows.append({"tag": tag, "exit": os.waitstatus_to_exitcode(status), "wall_s": time.monotonic() - start,
                     "cpu_s": usage.ru_utime + usage.ru_stime, "user_s": usage.ru_utime, "sys_s": usage.ru_stime,
                     "max_rss_mb": usage.ru_maxrss / 1024, "minor_faults": usage.ru_minflt,
                     "major_faults": usage.ru_majflt, "involuntary_switches": usage.ru_nivcsw})
    return sorted(rows, key=lambda r: r["tag"])

def phases(path):
    try:
        d = json.load(open(path))
    except Exception as e:
        return {"error": str(e)}
    seen = {}
    for b in d.get("benchmarks", []):
        k = b.get("kopt", {})
        if k.get("phases_s") and k.get("shape") not in seen:
            seen[k["shape"]] = k["phases_s"]
    return seen

def trials(log):
    return [(m.group(1), int(m.group(2))) for m in
            re.finditer(r"\[       OK \] (\S+) \((\d+) ms\)", open(log).read())]

report = []
for rep in range(repeat):
    for n in counts:
        for stage in ("correctness", "benchmark"):
            rows = run_at_once(stage, n, rep)
            for r in rows:
                if stage == "benchmark":
                    r["phases_s"] = phases(f"{out}/{r['tag']}.json")
                else:
                    r["trials_ms"] = trials(f"{out}/{r['tag']}.log")
            report.append({"stage": stage, "n": n, "rep": rep, "rows": rows})
            walls = [r["wall_s"] for r in rows]
            cpus = [r["cpu_s"] for r in rows]
            sys_s = sum(r["sys_s"] for r in rows) / n
            faults = sum(r["minor_faults"] for r in rows) / n
            line = (f"{stage:11s} {n} at once (rep {rep}): wall mean {sum(walls)/n:6.2f} s "
                    f"[{min(walls):.2f}..{max(walls):.2f}], cpu mean {sum(cpus)/n:6.2f} s (system {sys_s:.2f} s, "
                    f"{faults / 1e6:.2f} M page faults), exits "
                    f"{[r['exit'] for r in rows]}")
            if stage == "benchmark":
                tot = {}
                for r in rows:
                    for shape, ph in r["phases_s"].items():
                        if isinstance(ph, dict):
                            for key, v in ph.items():
                                tot[key] = tot.get(key, 0) + v / n
                line += " phases(mean per process) " + ", ".join(f"{k} {v:.2f}" for k, v in tot.items())
            else:
                t = sum(ms for r in rows for _, ms in r["trials_ms"]) / n / 1000
                line += f" trials(mean per process) {t:.2f} s"
            print(line, flush=True)
json.dump(report, open(f"{out}/contention.json", "w"), indent=1)
PY
