// The functions a generated test or benchmark main calls. Generated code
// only; kernel authors never call these.
#pragma once

#include <memory>

#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt {

class backend;
using backend_factory = std::unique_ptr<backend> (*)();

// Correctness tests (GoogleTest) for every variant of `spec`, on the
// backend `make_device` returns. Flags: --kopt_results=FILE, --kopt_quick,
// --kopt_threads=N (host threads, kernelopt/parallel.hpp). Exit status:
// GoogleTest's, 2 on a bad --kopt_ flag, or 77 when the backend cannot run
// here (no GPU), with the reason printed.
int run_correctness_main(const kernel_spec& spec, backend_factory make_device, int argc, char** argv);

std::unique_ptr<backend> make_host_backend();

namespace bench {
// Benchmarks of a host-backend kernel (steady clock).
int run_host_bench_main(const kernel_spec& spec, int argc, char** argv);
}  // namespace bench

namespace cuda {
// The GPU this process should use: CTest's resource allocation when present,
// else device 0.
std::unique_ptr<backend> make_default_backend();
// Benchmarks of a CUDA kernel (device events, CUPTI second clock).
int run_cuda_bench_main(const kernel_spec& spec, int argc, char** argv);
}  // namespace cuda

}  // namespace kopt
