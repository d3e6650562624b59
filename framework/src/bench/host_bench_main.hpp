// Entry point of a generated host-backend benchmark (`<k>_kopt_bench`).
#pragma once

#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt::bench {

// Google Benchmark main for a host-backend kernel: steady clock, caches
// flushed before each sample, the JSON written with kopt fields
// (docs/benchmarking.md). Exit status as run_main (driver.hpp).
int run_host_bench_main(const kernel_spec& spec, int argc, char** argv);

}  // namespace kopt::bench
