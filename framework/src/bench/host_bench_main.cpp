#include "bench/host_bench_main.hpp"

#include "bench/driver.hpp"
#include "bench/host_engine.hpp"
#include "harness/backend.hpp"

namespace kopt::bench {

int run_host_bench_main(const kernel_spec& spec, int argc, char** argv) {
  bench_context context;
  context.m_backend = "host";
  context.m_make_backend = [](const options&) { return make_host_backend(); };
  context.m_make_engine = [](backend&, const options&) { return make_host_engine(); };
  return run_main(spec, context, argc, argv);
}

}  // namespace kopt::bench
