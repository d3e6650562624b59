#include "bench/driver.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "bench/bench_json.hpp"
#include "bench/ceilings.hpp"
#include "bench/result.hpp"
#include "core/unix_time.hpp"
#include "harness/inputs.hpp"

namespace kopt::bench {
namespace {

constexpr int k_skip_status = 77;
constexpr int k_usage_status = 2;

struct bench_case {
  const impl_spec* m_impl;
  const shape_spec* m_shape;
  std::string m_name;  // <k>/<impl>/<shape>
};

struct not_benchmarked {
  std::string m_impl;
  std::string m_reason;
};

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Variants in declaration order, then baselines, then the reference when it
// runs on the kernel's backend at the kernel's precision (a host or f64
// reference is a correctness oracle, not a competitor).
std::vector<const impl_spec*> benchmarked_impls(const kernel_spec& spec, std::vector<not_benchmarked>& skipped) {
  std::vector<const impl_spec*> impls;
  for (const impl_spec& v : spec.m_variants) impls.push_back(&v);
  for (const impl_spec& b : spec.m_baselines) impls.push_back(&b);
  if (spec.m_reference) {
    const impl_spec& ref = *spec.m_reference;
    if (ref.m_backend != spec.m_backend) {
      skipped.push_back({ref.m_name, "reference runs on another backend than the kernel"});
    } else if (ref.m_f64) {
      skipped.push_back({ref.m_name, "reference computes in f64 (REFERENCE_PRECISION f64)"});
    } else {
      impls.push_back(&ref);
    }
  }
  return impls;
}

// Device buffers of one benchmark, filled once from the first seed.
struct prepared_inputs {
  std::vector<device_buffer> m_buffers;
  std::vector<void*> m_pointers;
};

prepared_inputs prepare(const kernel_spec& spec, const shape_spec& shape, backend& device) {
  const std::uint64_t seed = spec.m_seeds.empty() ? 1 : spec.m_seeds.front();
  const host_tensors host = make_inputs(spec, shape, seed);
  prepared_inputs inputs;
  inputs.m_buffers.reserve(spec.m_args.size());
  for (std::size_t i = 0; i < spec.m_args.size(); ++i) {
    const std::vector<unsigned char>& data = host.m_data[i];
    inputs.m_buffers.emplace_back(device, std::max<std::size_t>(data.size(), 1));
    // Outputs too: zero-filled by make_inputs, so every run starts alike.
    if (!data.empty()) device.copy_to_device(inputs.m_buffers.back().get(), data.data(), data.size());
    inputs.m_pointers.push_back(inputs.m_buffers.back().get());
  }
  device.synchronize("uploading the inputs of " + shape.m_text);
  return inputs;
}

class bench_run {
 public:
  bench_run(const kernel_spec& spec, const options& opts, std::optional<ceilings> limits)
      : m_spec(spec), m_options(opts), m_ceilings(std::move(limits)) {}

  void attach(backend& device, timing_engine& engine) {
    m_device = &device;
    m_engine = &engine;
  }

  void run(benchmark::State& state, const bench_case& c);

  [[nodiscard]] json top_level(const std::string& backend_name, const std::vector<not_benchmarked>& skipped) const;
  [[nodiscard]] const results_by_name& results() const { return m_results; }
  [[nodiscard]] const std::vector<overhead_entry>& overheads() const { return m_overheads; }
  [[nodiscard]] int failures() const { return m_failures; }

 private:
  void measure(benchmark::State& state, const bench_case& c, const launch_fn& launch);
  void fail(benchmark::State& state, const bench_case& c, const std::string& error);

  const kernel_spec& m_spec;
  const options& m_options;
  std::optional<ceilings> m_ceilings;
  backend* m_device = nullptr;
  timing_engine* m_engine = nullptr;
  results_by_name m_results;
  std::vector<overhead_entry> m_overheads;
  int m_failures = 0;
};

void bench_run::fail(benchmark::State& state, const bench_case& c, const std::string& error) {
  state.SkipWithError(error.c_str());
  m_results[c.m_name].push_back(error_json(m_spec, *c.m_impl, *c.m_shape, error));
  ++m_failures;
}

void bench_run::run(benchmark::State& state, const bench_case& c) {
  prepared_inputs inputs;
  void* stream = nullptr;
  try {
    if (c.m_impl->m_invoke == nullptr) throw std::runtime_error("no invoke function generated for " + c.m_impl->m_name);
    inputs = prepare(m_spec, *c.m_shape, *m_device);
    stream = m_device->stream();
  } catch (const std::exception& e) {
    fail(state, c, std::string("preparing inputs: ") + e.what());
    return;  // the loop below would not run after SkipWithError
  }
  const invoke_fn invoke = c.m_impl->m_invoke;
  void* const* pointers = inputs.m_pointers.data();
  const std::int64_t* dims = c.m_shape->m_dims.data();
  const launch_fn launch = [invoke, pointers, dims, stream] { invoke(pointers, dims, stream); };

  for (auto _ : state) {
    try {
      if (m_options.m_profile) {
        const double start = now_s();
        m_engine->profile(launch, std::max<std::size_t>(1, settings_from(m_spec.m_timing).m_warmup_samples));
        m_device->synchronize("profiling " + c.m_name);
        state.SetIterationTime(now_s() - start);
        m_results[c.m_name].push_back(profile_json(m_spec, *c.m_impl, *c.m_shape));
      } else {
        measure(state, c, launch);
      }
    } catch (const std::exception& e) {
      fail(state, c, e.what());
    }
  }
}

void bench_run::measure(benchmark::State& state, const bench_case& c, const launch_fn& launch) {
  const sampler_settings settings = settings_from(m_spec.m_timing);
  const measurement m = m_engine->measure(launch, settings);
  m_device->synchronize("benchmarking " + c.m_name);
  const sample_stats& stats = m.m_primary.m_stats;
  state.SetIterationTime(stats.m_median * 1e-9);

  const rates r = compute_rates(work(m_spec, m_spec.m_flops, *c.m_shape), work(m_spec, m_spec.m_bytes, *c.m_shape),
                                stats.m_median, m_ceilings ? &*m_ceilings : nullptr);
  if (r.m_tflops) state.counters["TFLOP/s"] = benchmark::Counter(*r.m_tflops);
  if (r.m_gbps) state.counters["GB/s"] = benchmark::Counter(*r.m_gbps);
  if (r.m_fractions) {
    for (const auto& [name, fraction] : *r.m_fractions) state.counters["%" + name] = benchmark::Counter(100.0 * fraction);
  }
  state.counters["samples"] = benchmark::Counter(static_cast<double>(stats.m_count));
  if (std::isfinite(stats.m_noise)) state.counters["noise%"] = benchmark::Counter(100.0 * stats.m_noise);

  m_results[c.m_name].push_back(benchmark_json(m_spec, *c.m_impl, *c.m_shape, m, r, settings.m_max_noise));
  m_overheads.push_back({c.m_name, m.m_harness_ns_per_sample, m.m_second_clock_cost_ns});
}

json bench_run::top_level(const std::string& backend_name, const std::vector<not_benchmarked>& skipped) const {
  const timing_spec& t = m_spec.m_timing;
  json timing = {{"min_samples", t.m_min_samples},
                 {"min_time_s", t.m_min_time_s},
                 {"max_noise", t.m_max_noise},
                 {"timeout_s", t.m_timeout_s},
                 {"warmup_samples", t.m_warmup_samples}};
  if (m_engine != nullptr) {
    const json fields = m_engine->timing_fields();
    for (const auto& [key, value] : fields.items()) timing[key] = value;
  }
  json not_run = json::array();
  for (const not_benchmarked& s : skipped) not_run.push_back({{"impl", s.m_impl}, {"reason", s.m_reason}});
  return {{"schema_version", 1},
          {"kind", "kernelopt.bench"},
          {"kernel", m_spec.m_name},
          {"backend", backend_name},
          {"device", m_device != nullptr ? json(m_device->device_name()) : json(nullptr)},
          {"device_index", m_device != nullptr ? json(m_device->device_index()) : json(nullptr)},
          {"mode", m_options.m_profile ? "profile" : "measure"},
          {"shape_set", m_options.m_quick ? "quick" : "full"},
          {"timing", timing},
          {"ceilings", m_ceilings ? json(m_ceilings->m_file) : json(nullptr)},
          {"not_benchmarked", not_run},
          {"overhead", overhead_json(m_overheads)}};
}

void print_help() {
  benchmark::PrintDefaultHelp();
  std::fputs(options_help().c_str(), stdout);
}

}  // namespace

int run_main(const kernel_spec& spec, const bench_context& context, int argc, char** argv) {
  options opts;
  try {
    opts = take_options(argc, argv);
  } catch (const options_error& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return k_usage_status;
  }
  const benchmark_flags flags = read_benchmark_flags(argc, argv);
  benchmark::Initialize(&argc, argv, &print_help);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  std::optional<ceilings> limits;
  if (!opts.m_ceilings.empty()) {
    try {
      limits = read_ceilings(opts.m_ceilings);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: --kopt_ceilings: %s\n", argv[0], e.what());
      return k_usage_status;
    }
  }

  bench_run run(spec, opts, std::move(limits));
  std::vector<not_benchmarked> skipped;
  const std::vector<const impl_spec*> impls = benchmarked_impls(spec, skipped);
  const std::vector<shape_spec>& shapes =
      opts.m_quick && !spec.m_quick_shapes.empty() ? spec.m_quick_shapes : spec.m_shapes;
  if (opts.m_quick && spec.m_quick_shapes.empty()) {
    std::fprintf(stderr, "kopt: %s declares no QUICK_SHAPES; --kopt_quick runs SHAPES\n", spec.m_name.c_str());
  }
  // Registration only names things: nothing here may touch the device.
  std::vector<bench_case> cases;
  for (const impl_spec* impl : impls) {
    for (const shape_spec& shape : shapes) cases.push_back({impl, &shape, spec.m_name + "/" + impl->m_name + "/" + shape.m_text});
  }
  for (const bench_case& c : cases) {
    benchmark::RegisterBenchmark(c.m_name.c_str(), [&run, &c](benchmark::State& state) { run.run(state, c); })
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMicrosecond);
  }

  if (flags.m_list_tests) {
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
  }

  const std::unique_ptr<backend> device = context.m_make_backend(opts);
  const std::string unavailable = device->unavailable_reason();
  if (!unavailable.empty()) {
    std::printf("SKIPPED: %s\n", unavailable.c_str());
    std::fflush(stdout);
    return k_skip_status;
  }
  std::unique_ptr<timing_engine> engine;
  try {
    engine = context.m_make_engine(*device, opts);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: cannot set up timing: %s\n", argv[0], e.what());
    return 1;
  }
  // Timing needs the GPU alone: CTest's allocation gives it where ctest has
  // a resource spec; the claim holds it in every other case (cuda/gpu_claim.hpp).
  json claim;
  try {
    claim = device->claim(true);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
  run.attach(*device, *engine);
  benchmark::AddCustomContext("kopt_kernel", spec.m_name);
  benchmark::AddCustomContext("kopt_device", device->device_name());

  const std::int64_t started_ns = unix_now_ns();
  benchmark::RunSpecifiedBenchmarks();
  const std::int64_t finished_ns = unix_now_ns();

  const std::string overhead = overhead_text(run.overheads());
  if (!overhead.empty()) std::fprintf(stderr, "%s\n", overhead.c_str());
  int status = run.failures() > 0 ? 1 : 0;
  if (!flags.m_out.empty() && flags.m_out_format == "json") {
    try {
      json top = run.top_level(context.m_backend, skipped);
      // Which GPU, and when it was held: `kopt overlap` checks from these
      // that no two benchmark runs shared a GPU.
      top["gpu"] = device->identity();
      top["claim"] = claim;
      top["started_unix_ns"] = started_ns;
      top["finished_unix_ns"] = finished_ns;
      add_kopt_to_file(flags.m_out, top, run.results());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: adding kopt fields to %s: %s\n", argv[0], flags.m_out.c_str(), e.what());
      status = 1;
    }
  }
  benchmark::Shutdown();
  return status;
}

}  // namespace kopt::bench
