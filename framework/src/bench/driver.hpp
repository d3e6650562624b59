// The generated `<k>_kopt_bench` main, shared by both backends: flags,
// Google Benchmark registration (one benchmark per implementation x shape,
// named <k>/<impl>/<shape>), inputs, counters, and the kopt rows that the
// result reporter (reporter.hpp) writes with Google Benchmark's own fields.
// What differs per backend comes in through bench_context.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "bench/engine.hpp"
#include "bench/options.hpp"
#include "harness/backend.hpp"
#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt::bench {

struct bench_context {
  std::string m_backend;  // "cuda" or "host", as kopt.backend
  // Makes the backend. NOTE: must not touch the device; listing runs without one.
  std::function<std::unique_ptr<backend>(const options&)> m_make_backend;
  // Called once the backend said it can run (unavailable_reason() empty).
  std::function<std::unique_ptr<timing_engine>(backend&, const options&)> m_make_engine;
};

// Exit status: 0; 1 when a benchmark failed (printing "kopt bench: N of M
// benchmarks failed" after the rows) or the JSON could not be
// completed; 2 on a bad --kopt_ flag or ceilings file; 77 (printing
// "SKIPPED: <reason>") when the backend cannot run here. Listing
// (--benchmark_list_tests) never creates the backend.
int run_main(const kernel_spec& spec, const bench_context& context, int argc, char** argv);

}  // namespace kopt::bench
