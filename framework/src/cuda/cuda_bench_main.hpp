// Entry point of a generated CUDA benchmark (`<k>_kopt_bench`).
#pragma once

#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt::cuda {

// Google Benchmark main for a CUDA kernel: cold device-event timing with
// the launch hidden behind a spinning kernel, L2 flushed before each
// sample, a CUPTI second clock in a separate pass, NVML clock watch, the
// JSON written with kopt fields (docs/benchmarking.md). Without a visible
// GPU: --benchmark_list_tests still lists, anything else prints
// "SKIPPED: no CUDA device visible: ..." and returns 77.
int run_cuda_bench_main(const kernel_spec& spec, int argc, char** argv);

}  // namespace kopt::cuda
