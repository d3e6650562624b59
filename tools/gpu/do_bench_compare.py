#!/usr/bin/env python3
"""Time torch workloads with Triton's do_bench, for its spread beside ours.

Workloads (each paired, in the summary, with the KernelOpt benchmark that
does comparable work; same shapes, not the same code):
  matmul_bf16_4096     torch.matmul, bf16 4096x4096 @ 4096x4096
                       ~ gemm/cublas/M=4096,N=4096,K=4096 (cuBLAS, f32 out)
  softmax_f32_8192     torch.softmax(dim=-1), f32 8192x8192, x ~ 3*N(0,1)
                       ~ softmax/v2/rows=8192,cols=8192

do_bench flushes L2 (zeroes a 256 MB buffer) before each repetition and
times each with CUDA events, like our cold measurement, but launches from
the host without hiding the launch and takes a fixed time budget instead of
a noise bound. Writes JSON (kind kernelopt.do_bench_compare) to --out; when
torch or triton is missing, the file says so (available: false) and the
exit status is still 0, so the validation goes on.
"""
import argparse
import json
import math
import sys


def quantile(sorted_values, q):
    """numpy's default (linear) quantile, as KernelOpt's sampler computes it."""
    position = q * (len(sorted_values) - 1)
    below = math.floor(position)
    above = min(below + 1, len(sorted_values) - 1)
    return sorted_values[below] + (position - below) * (sorted_values[above] - sorted_values[below])


def spread(times_ms):
    values = sorted(times_ms)
    n = len(values)
    mean = sum(values) / n
    stdev = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return {
        "n": n,
        "median_ms": quantile(values, 0.5),
        "mean_ms": mean,
        "min_ms": values[0],
        "max_ms": values[-1],
        "p10_ms": quantile(values, 0.1),
        "p90_ms": quantile(values, 0.9),
        "cv": stdev / mean if mean > 0 else None,
    }


def run(do_bench, fn, warmup, rep):
    """All repetition times (ms); older Triton only gives quantiles."""
    try:
        times = do_bench(fn, warmup=warmup, rep=rep, return_mode="all")
        return {"mode": "all", **spread(list(times)), "times_ms": list(times)}
    except TypeError:
        q = do_bench(fn, warmup=warmup, rep=rep, quantiles=[0.1, 0.5, 0.9])
        return {"mode": "quantiles", "n": None, "p10_ms": q[0], "median_ms": q[1], "p90_ms": q[2]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="JSON file to write")
    parser.add_argument("--warmup", type=int, default=100, help="do_bench warm-up budget in ms")
    parser.add_argument("--rep", type=int, default=1000, help="do_bench repetition budget in ms")
    args = parser.parse_args()

    doc = {"schema_version": 1, "kind": "kernelopt.do_bench_compare", "available": False, "reason": None,
           "workloads": []}
    try:
        import torch
        import triton
        import triton.testing
    except Exception as error:  # ImportError, or a broken install
        doc["reason"] = f"cannot import torch and triton: {error!r}"
    else:
        doc["torch"] = torch.__version__
        doc["triton"] = triton.__version__
        if not torch.cuda.is_available():
            doc["reason"] = "torch.cuda.is_available() is False"
        else:
            doc["available"] = True
            doc["device"] = torch.cuda.get_device_name(0)
            torch.manual_seed(1)
            a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
            x = 3.0 * torch.randn(8192, 8192, device="cuda", dtype=torch.float32)
            workloads = [
                ("matmul_bf16_4096", "gemm/cublas/M=4096,N=4096,K=4096", lambda: torch.matmul(a, b)),
                ("softmax_f32_8192", "softmax/v2/rows=8192,cols=8192", lambda: torch.softmax(x, dim=-1)),
            ]
            for name, compare_with, fn in workloads:
                result = run(triton.testing.do_bench, fn, args.warmup, args.rep)
                doc["workloads"].append({"name": name, "compare_with": compare_with, **result})
                print(f"{name}: median {result['median_ms'] * 1e3:.2f} us "
                      f"(p10 {result['p10_ms'] * 1e3:.2f}, p90 {result['p90_ms'] * 1e3:.2f}, n {result['n']})")
    if not doc["available"]:
        print(f"do_bench_compare: skipped: {doc['reason']}", file=sys.stderr)
    with open(args.out, "w") as out:
        json.dump(doc, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
