// Helpers of the tests that run a benchmark session on the host backend:
// y = 2x as an implementation and its f64 reference, a spec of one shape
// (n=1000), and an engine whose samples take what a function says.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "bench/session.hpp"
#include "harness/backend.hpp"

namespace kopt::bench {

inline void twice(void* const* b, const std::int64_t* d, void*) {
  const auto* x = static_cast<const float*>(b[0]);
  auto* y = static_cast<float*>(b[1]);
  for (std::int64_t i = 0; i < d[0]; ++i) y[i] = 2 * x[i];
}

inline void twice_reference(void* const* b, const std::int64_t* d, void*) {
  const auto* x = static_cast<const double*>(b[0]);
  auto* y = static_cast<double*>(b[1]);
  for (std::int64_t i = 0; i < d[0]; ++i) y[i] = 2 * x[i];
}

inline impl_spec host_impl(const char* name, impl_role role, bool f64, invoke_fn invoke) {
  impl_spec impl;
  impl.m_name = name;
  impl.m_entry = name;
  impl.m_role = role;
  impl.m_backend = backend_kind::host;
  impl.m_f64 = f64;
  impl.m_invoke = invoke;
  return impl;
}

inline kernel_spec spec_of(std::vector<arg_spec> args, std::vector<impl_spec> variants, impl_spec reference) {
  kernel_spec spec;
  spec.m_name = "twice";
  spec.m_backend = backend_kind::host;
  spec.m_dims = {"n"};
  spec.m_args = std::move(args);
  spec.m_shapes = {{"n=1000", {1000}}};
  spec.m_seeds = {1};
  spec.m_timing = timing_spec{3, 0.0, 1.0, 1.0, 1};
  spec.m_variants = std::move(variants);
  spec.m_reference = std::move(reference);
  return spec;
}

// A sample takes what `cost` says after the launch; by default every sample
// takes the same time: the timing checks pass, only the output checks decide.
class cost_engine final : public timing_engine {
 public:
  explicit cost_engine(std::function<double()> cost = [] { return 1000.0; }) : m_cost(std::move(cost)) {}
  [[nodiscard]] engine_timing timing_fields() const override { return {}; }
  [[nodiscard]] double resolution_ns() const override { return 1.0; }
  void warm(const launch_fn& launch) override { launch(); }
  [[nodiscard]] double sample_ns(const launch_fn& launch) override {
    launch();
    return m_cost();
  }
  void second_clock(const launch_fn&, const sampler_settings&, measurement&) override {}
  void profile(const launch_fn& launch, std::size_t) override { launch(); }

 private:
  std::function<double()> m_cost;
};

inline std::vector<impl_outcome> measure(const kernel_spec& spec, cost_engine engine = cost_engine()) {
  std::vector<const impl_spec*> impls;
  for (const impl_spec& v : spec.m_variants) impls.push_back(&v);
  const std::unique_ptr<backend> device = make_host_backend();
  const std::unique_ptr<backend> host = make_host_backend();
  return measure_shape(spec, spec.m_shapes[0], impls, *device, *host, engine);
}

}  // namespace kopt::bench
