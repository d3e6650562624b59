#!/usr/bin/env python3
"""Turn tools/gpu/bench_validation.sh's output directory into Markdown.

Usage: summarize_validation.py OUT_DIR > OUT_DIR/summary.md

Tables:
  1. Our median (event clock, run 1) and the CUPTI span beside Nsight
     Compute's gpu__time_duration.sum for one launch; the claim checked is
     |ours/ncu - 1| <= 2% for kernels of 20 us or more.
  2. Stability: the median of each of the back-to-back runs; the claim is
     (max - min) / median <= 0.5%.
  3. Triton do_bench's spread on comparable torch workloads beside ours.
  4. Overheads: harness time per sample and CUPTI cost per launch, per run;
     and the event clock minus the CUPTI span per benchmark (the fixed cost
     the clock_disagreement floor must cover).
Only reads files; missing parts are reported as missing, never filled in.
"""
import csv
import glob
import json
import math
import os
import re
import statistics
import sys

NCU_CLAIM = 0.02
NCU_MIN_NS = 20_000.0
STABILITY_CLAIM = 0.005
UNIT_NS = {"ns": 1.0, "nsecond": 1.0, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6, "s": 1e9, "second": 1e9}


def us(ns):
    return "n/a" if ns is None or (isinstance(ns, float) and math.isnan(ns)) else f"{ns / 1e3:.2f}"


def pct(fraction):
    return "n/a" if fraction is None else f"{100 * fraction:+.2f}%"


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        print(f"<!-- cannot read {path}: {error} -->")
        return None


def read_ncu(path):
    """Sum of gpu__time_duration.sum over the kernels of the profiled launch (ns)."""
    try:
        with open(path, newline="") as f:
            lines = [line for line in f if line.startswith('"')]
    except OSError:
        return None, "no ncu output"
    if not lines:
        return None, "ncu wrote no rows (see the .stdout beside the .csv)"
    total, kernels = 0.0, 0
    for row in csv.DictReader(lines):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        value = float(row["Metric Value"].replace(",", ""))
        total += value * UNIT_NS.get(row.get("Metric Unit", "ns").strip(), 1.0)
        kernels += 1
    if kernels == 0:
        return None, "no gpu__time_duration.sum row"
    return total, f"{kernels} kernel(s)"


def load_runs(out):
    """{bench: [(run index, doc)]} from runs/<bench>_run<i>.json."""
    runs = {}
    for path in glob.glob(os.path.join(out, "runs", "*_run*.json")):
        match = re.match(r"(.+)_run(\d+)\.json$", os.path.basename(path))
        doc = load_json(path)
        if match and doc is not None:
            runs.setdefault(match.group(1), []).append((int(match.group(2)), doc))
    for bench in runs:
        runs[bench].sort(key=lambda item: item[0])
    return runs


def no_runs_reason(out):
    logs = sorted(glob.glob(os.path.join(out, "runs", "*.log")))
    if not logs:
        return "runs step not run"
    with open(logs[0]) as f:
        first = f.readline().strip()
    return f"no run JSON was written ({os.path.basename(logs[0])}: {first})"


def kopt_rows(doc):
    """{benchmark name: kopt object} of one run, iterations only."""
    rows = {}
    for entry in doc.get("benchmarks", []):
        if entry.get("run_type", "iteration") == "iteration" and "kopt" in entry and "median_ns" in entry["kopt"]:
            rows[entry["name"]] = entry["kopt"]
    return rows


def table_ncu(out, runs):
    print("## 1. Event clock vs Nsight Compute (one launch, `--clock-control none`)\n")
    index = os.path.join(out, "ncu", "index.tsv")
    if not os.path.exists(index) or os.path.exists(os.path.join(out, "ncu", "unavailable.txt")):
        reason = open(os.path.join(out, "ncu", "unavailable.txt")).read().strip() \
            if os.path.exists(os.path.join(out, "ncu", "unavailable.txt")) else "ncu step not run"
        print(f"Not measured: {reason}.\n")
        return
    first = {}
    for bench, docs in runs.items():
        if docs:
            first.update(kopt_rows(docs[0][1]))
    print("| benchmark | ours median (us) | CUPTI span (us) | ncu (us) | ours vs ncu | within 2% (>= 20 us) |")
    print("|---|---:|---:|---:|---:|---|")
    checked, passed = 0, 0
    with open(index) as f:
        for line in f:
            safe, name = line.rstrip("\n").split("\t", 1)
            ncu_ns, note = read_ncu(os.path.join(out, "ncu", safe + ".csv"))
            row = first.get(name)
            ours = row["median_ns"] if row else None
            second = (row or {}).get("second_clock", {}).get("median_ns")
            diff = ours / ncu_ns - 1 if ours and ncu_ns else None
            if diff is None:
                verdict = f"n/a ({note if ncu_ns is None else 'no run-1 result'})"
            elif ncu_ns < NCU_MIN_NS:
                verdict = "n/a (< 20 us)"
            else:
                checked += 1
                ok = abs(diff) <= NCU_CLAIM
                passed += ok
                verdict = "yes" if ok else "**no**"
            print(f"| `{name}` | {us(ours)} | {us(second)} | {us(ncu_ns)} | {pct(diff)} | {verdict} |")
    print(f"\n{passed} of {checked} benchmarks of 20 us or more within 2% of ncu.\n")


def table_stability(out, runs):
    print("## 2. Back-to-back runs (median per run)\n")
    if not runs:
        print(f"Not measured: {no_runs_reason(out)}.\n")
        return
    count = max(len(docs) for docs in runs.values())
    print("| benchmark | " + " | ".join(f"run {i + 1} (us)" for i in range(count)) + " | (max-min)/median | within 0.5% |")
    print("|---|" + "---:|" * count + "---:|---|")
    checked, passed = 0, 0
    for bench in sorted(runs):
        per_name = {}
        for _, doc in runs[bench]:
            for name, row in kopt_rows(doc).items():
                per_name.setdefault(name, []).append(row["median_ns"])
        for name, medians in per_name.items():
            width = (max(medians) - min(medians)) / statistics.median(medians) if len(medians) > 1 else None
            ok = width is not None and width <= STABILITY_CLAIM
            checked += width is not None
            passed += ok
            cells = " | ".join(us(m) for m in medians) + " | n/a" * (count - len(medians))
            verdict = "n/a" if width is None else ("yes" if ok else "**no**")
            print(f"| `{name}` | {cells} | {pct(width).lstrip('+')} | {verdict} |")
    print(f"\n{passed} of {checked} benchmarks stable within 0.5% over the runs.\n")


def table_do_bench(out, runs):
    print("## 3. Triton do_bench beside ours\n")
    doc = load_json(os.path.join(out, "do_bench.json")) if os.path.exists(os.path.join(out, "do_bench.json")) else None
    if not doc or not doc.get("available"):
        print(f"Not measured: {doc.get('reason') if doc else 'dobench step not run'}.\n")
        return
    print(f"torch {doc.get('torch')}, triton {doc.get('triton')}, {doc.get('device')}.\n")
    ours = {}
    for bench, docs in runs.items():
        if docs:
            ours.update(kopt_rows(docs[0][1]))
    print("| workload | clock | median (us) | p10 (us) | p90 (us) | (p90-p10)/median | CV | samples |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for w in doc["workloads"]:
        width = (w["p90_ms"] - w["p10_ms"]) / w["median_ms"]
        cv = "n/a" if w.get("cv") is None else f"{100 * w['cv']:.2f}%"
        print(f"| {w['name']} (torch) | do_bench | {us(w['median_ms'] * 1e6)} | {us(w['p10_ms'] * 1e6)} | "
              f"{us(w['p90_ms'] * 1e6)} | {100 * width:.2f}% | {cv} | {w.get('n') or 'n/a'} |")
        match = next((row for name, row in ours.items() if name.startswith(w["compare_with"] + "/")
                      or name == w["compare_with"]), None)
        if match:
            width = (match["p90_ns"] - match["p10_ns"]) / match["median_ns"]
            print(f"| `{w['compare_with']}` | KernelOpt | {us(match['median_ns'])} | {us(match['p10_ns'])} | "
                  f"{us(match['p90_ns'])} | {100 * width:.2f}% | {100 * match['cv']:.2f}% | {match['samples']} |")
        else:
            print(f"| `{w['compare_with']}` | KernelOpt | not in run 1 | | | | | |")
    print()


def table_overheads(out, runs):
    print("## 4. Overheads and the two clocks\n")
    if not runs:
        print(f"Not measured: {no_runs_reason(out)}.\n")
        return
    print("| bench | run | harness per sample (us) | CUPTI cost per launch (ns) |")
    print("|---|---:|---:|---:|")
    for bench in sorted(runs):
        for index, doc in runs[bench]:
            overhead = doc.get("kopt", {}).get("overhead", {})
            cupti = overhead.get("cupti_ns_per_launch")
            print(f"| {bench} | {index} | {us(overhead.get('harness_ns_per_sample'))} | "
                  f"{'n/a' if cupti is None else f'{cupti:.0f}'} |")
    print("\n| benchmark (run 1) | events (us) | CUPTI span (us) | events - CUPTI (ns) | agreement | flags |")
    print("|---|---:|---:|---:|---|---|")
    for bench in sorted(runs):
        for name, row in kopt_rows(runs[bench][0][1]).items():
            second = row.get("second_clock", {})
            span = second.get("median_ns")
            delta = f"{row['median_ns'] - span:.0f}" if span is not None else "n/a"
            agreement = second.get("agreement", "n/a") if second.get("available") else \
                f"unavailable: {second.get('reason')}"
            print(f"| `{name}` | {us(row['median_ns'])} | {us(span)} | {delta} | {agreement} | "
                  f"{', '.join(row.get('flags', [])) or '-'} |")
    print()


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    print("# Benchmark clock validation\n")
    env = os.path.join(out, "env.txt")
    if os.path.exists(env):
        with open(env) as f:
            head = [next(f, "").rstrip() for _ in range(4)]
        print("```\n" + "\n".join(line for line in head if line) + "\n```\n")
    runs = load_runs(out)
    table_ncu(out, runs)
    table_stability(out, runs)
    table_do_bench(out, runs)
    table_overheads(out, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
