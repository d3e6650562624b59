#include "bench/driver.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <deque>
#include <mutex>
#include <thread>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "bench/reporter.hpp"
#include "bench/result.hpp"
#include "bench/session.hpp"
#include "core/unix_time.hpp"
#include "core/version.hpp"
#include "formats/ceilings.hpp"
#include "harness/guarded.hpp"
#include "harness/host_memory.hpp"
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

std::vector<const impl_spec*> all_impls(const kernel_spec& spec) {
  std::vector<const impl_spec*> impls;
  for (const impl_spec& v : spec.m_variants) impls.push_back(&v);
  for (const impl_spec& b : spec.m_baselines) impls.push_back(&b);
  return impls;
}

// Variants in declaration order, then baselines, then the reference when it
// runs on the kernel's backend at the kernel's precision (a host or f64
// reference is a correctness oracle, not a competitor).
// Implementations this build does not hold are not benchmarked, with their
// reason.
std::vector<const impl_spec*> benchmarked_impls(const kernel_spec& spec, std::vector<not_benchmarked>& skipped) {
  std::vector<const impl_spec*> impls;
  for (const impl_spec* impl : all_impls(spec)) {
    if (impl->m_skip_reason.empty()) {
      impls.push_back(impl);
    } else {
      skipped.push_back({impl->m_name, "not built: " + impl->m_skip_reason});
    }
  }
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

// The benchmark's own watchdog (--kopt_timeout): a kernel that never
// returns is named, and the process ends with 124, before whoever started it
// has to kill it without knowing what hung.
class watchdog {
 public:
  void start(double seconds) {
    if (!(seconds > 0)) return;
    m_start = std::chrono::steady_clock::now();
    std::thread([this, seconds] {
      std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
      std::string what;
      {
        const std::lock_guard<std::mutex> lock(m_mutex);
        what = m_current.empty() ? std::string("the benchmark (before its first measurement)") : m_current;
      }
      std::fprintf(stderr, "kopt bench: watchdog: %s still running after %.0f s (limit: --kopt_timeout=%g); exiting 124\n",
                   what.c_str(), seconds, seconds);
      std::fflush(stderr);
      std::_Exit(124);
    }).detach();
  }
  void set(std::string current) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_current = std::move(current);
  }

 private:
  std::mutex m_mutex;
  std::string m_current;
  std::chrono::steady_clock::time_point m_start;
};

watchdog& the_watchdog() {
  static watchdog* w = new watchdog();  // never destroyed: its thread may outlive main
  return *w;
}

// What --benchmark_filter selects, as Google Benchmark reads it: empty or
// "all" is everything, a leading '-' negates, else a regex search.
class name_filter {
 public:
  explicit name_filter(std::string filter) {
    if (filter.empty() || filter == "all") filter = ".";
    if (filter[0] == '-') {
      m_negated = true;
      filter.erase(0, 1);
    }
    m_regex = std::regex(filter, std::regex::extended);
  }
  [[nodiscard]] bool selects(const std::string& name) const { return std::regex_search(name, m_regex) != m_negated; }

 private:
  std::regex m_regex;
  bool m_negated = false;
};

class bench_run {
 public:
  bench_run(const kernel_spec& spec, const options& opts, std::optional<ceilings_file> limits)
      : m_spec(spec), m_options(opts), m_ceilings(std::move(limits)), m_ceilings_path(opts.m_ceilings) {}

  void attach(backend& device, backend& host, timing_engine& engine, std::vector<const bench_case*> selected) {
    m_device = &device;
    m_host = &host;
    m_engine = &engine;
    m_selected = std::move(selected);
  }

  void run(benchmark::State& state, const bench_case& c);

  // The top-level kopt object (the GPU, claim and wall clock are the caller's).
  [[nodiscard]] bench_header header(const std::string& backend_name, const std::vector<not_benchmarked>& skipped) const;
  // The next row of the benchmark registered as `name`, in the order its runs ran.
  [[nodiscard]] std::optional<bench_row> take_row(const std::string& name);
  [[nodiscard]] const std::vector<overhead_entry>& overheads() const { return m_overheads; }
  [[nodiscard]] int failures() const { return m_failures; }
  [[nodiscard]] std::size_t failed_count() const { return m_failed.size(); }
  [[nodiscard]] std::size_t selected_count() const { return m_selected.size(); }

 private:
  void profile(benchmark::State& state, const bench_case& c);
  void report(benchmark::State& state, const bench_case& c, impl_outcome outcome);
  // Measures every selected implementation of c's shape together; queues
  // an outcome for each of their cases.
  void measure_shape_of(const bench_case& c);
  void fail(benchmark::State& state, const bench_case& c, const std::string& error,
            std::optional<output_check_summary> output_check = std::nullopt,
            std::optional<shape_phases> phases = std::nullopt);

  const kernel_spec& m_spec;
  const options& m_options;
  std::optional<ceilings_file> m_ceilings;
  std::string m_ceilings_path;
  backend* m_device = nullptr;
  backend* m_host = nullptr;
  timing_engine* m_engine = nullptr;
  std::vector<const bench_case*> m_selected;
  std::map<std::string, std::deque<impl_outcome>> m_pending;  // by case name
  std::map<std::string, std::deque<bench_row>> m_rows;  // by case name, in run order
  std::vector<overhead_entry> m_overheads;
  int m_failures = 0;
  std::set<std::string> m_failed;  // names of the cases that failed
};

void bench_run::fail(benchmark::State& state, const bench_case& c, const std::string& error,
                     std::optional<output_check_summary> output_check, std::optional<shape_phases> phases) {
  state.SkipWithError(error.c_str());
  bench_row row = failed_row(m_spec, *c.m_impl, *c.m_shape, error);
  row.m_output_check = std::move(output_check);
  row.m_phases = phases;
  m_rows[c.m_name].push_back(std::move(row));
  ++m_failures;
  m_failed.insert(c.m_name);
}

std::optional<bench_row> bench_run::take_row(const std::string& name) {
  const auto it = m_rows.find(name);
  if (it == m_rows.end() || it->second.empty()) return std::nullopt;
  bench_row row = std::move(it->second.front());
  it->second.pop_front();
  return row;
}

void bench_run::run(benchmark::State& state, const bench_case& c) {
  for (auto _ : state) {
    if (m_options.m_profile) {
      profile(state, c);
      continue;
    }
    std::deque<impl_outcome>& queue = m_pending[c.m_name];
    if (queue.empty()) measure_shape_of(c);
    if (queue.empty()) {
      fail(state, c, "no measurement was made for " + c.m_name);
      continue;
    }
    impl_outcome outcome = std::move(queue.front());
    queue.pop_front();
    report(state, c, std::move(outcome));
  }
}

void bench_run::measure_shape_of(const bench_case& c) {
  std::vector<const bench_case*> together;
  for (const bench_case* other : m_selected) {
    if (other->m_shape == c.m_shape) together.push_back(other);
  }
  if (std::find(together.begin(), together.end(), &c) == together.end()) together.push_back(&c);
  std::vector<const impl_spec*> impls;
  std::string names;
  for (const bench_case* t : together) {
    impls.push_back(t->m_impl);
    names += (names.empty() ? "" : ", ") + t->m_impl->m_name;
  }
  the_watchdog().set("measuring " + m_spec.m_name + " on " + c.m_shape->m_text + " (" + names + ")");
  std::vector<impl_outcome> outcomes = measure_shape(m_spec, *c.m_shape, impls, *m_device, *m_host, *m_engine);
  for (std::size_t i = 0; i < together.size(); ++i) m_pending[together[i]->m_name].push_back(std::move(outcomes[i]));
}

void bench_run::profile(benchmark::State& state, const bench_case& c) {
  the_watchdog().set("profiling " + c.m_name);
  const std::optional<std::string> error = [&]() -> std::optional<std::string> {
    try {
      if (c.m_impl->m_invoke == nullptr) throw std::runtime_error(not_loaded(*c.m_impl));
      const std::uint64_t seed = m_spec.m_seeds.empty() ? 1 : m_spec.m_seeds.front();
      guarded_tensors tensors(m_spec, *c.m_shape, *m_device);
      tensors.load(make_inputs(m_spec, *c.m_shape, seed));
      const invoke_fn invoke = c.m_impl->m_invoke;
      void* const* pointers = tensors.pointers();
      const std::int64_t* dims = c.m_shape->m_dims.data();
      void* stream = m_device->stream();
      const double start = steady_now_s();
      m_engine->profile([invoke, pointers, dims, stream] { invoke(pointers, dims, stream); },
                        std::max<std::size_t>(1, settings_from(m_spec.m_timing).m_warmup_samples));
      m_device->synchronize("profiling " + c.m_name);
      state.SetIterationTime(steady_now_s() - start);
      return std::nullopt;
    } catch (const std::exception& e) {
      return std::string(e.what());
    } catch (...) {
      return std::string("an exception of a type not derived from std::exception");
    }
  }();
  if (error) {
    fail(state, c, *error);
  } else {
    m_rows[c.m_name].push_back(profiled_row(m_spec, *c.m_impl, *c.m_shape));
  }
}

void bench_run::report(benchmark::State& state, const bench_case& c, impl_outcome outcome) {
  if (outcome.m_error) {
    fail(state, c, *outcome.m_error, outcome.m_output_check, outcome.m_phases);
    return;
  }
  const sampler_settings settings = settings_from(m_spec.m_timing);
  const measurement& m = outcome.m_measurement;
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

  bench_row row = timed_row(m_spec, *c.m_impl, *c.m_shape, m, r, settings.m_max_noise);
  row.m_rounds = std::move(outcome.m_rounds);
  row.m_output_check = std::move(outcome.m_output_check);
  row.m_phases = outcome.m_phases;
  m_rows[c.m_name].push_back(std::move(row));
  m_overheads.push_back({c.m_name, m.m_harness_ns_per_sample, m.m_second_clock_cost_ns});
}

bench_header bench_run::header(const std::string& backend_name, const std::vector<not_benchmarked>& skipped) const {
  const timing_spec& t = m_spec.m_timing;
  bench_header h;
  h.m_kernel = m_spec.m_name;
  h.m_kernelopt_version = kernelopt_version();
  h.m_backend = backend_name;
  if (m_device != nullptr) {
    h.m_device = m_device->device_name();
    h.m_device_index = m_device->device_index();
  }
  h.m_mode = m_options.m_profile ? "profile" : "measure";
  h.m_shape_set = m_options.m_quick ? "quick" : "full";
  timing_settings& settings = h.m_timing.emplace();
  settings.m_min_samples = t.m_min_samples;
  settings.m_min_time_s = t.m_min_time_s;
  settings.m_max_noise = t.m_max_noise;
  settings.m_timeout_s = t.m_timeout_s;
  settings.m_warmup_samples = t.m_warmup_samples;
  if (m_engine != nullptr) {
    settings.m_l2_flush_bytes = m_engine->l2_flush_bytes();
    h.m_engine_timing = m_engine->timing_fields();
  }
  if (m_ceilings) h.m_ceilings = m_ceilings_path;
  h.m_not_benchmarked = skipped;
  h.m_overhead = summarize_overhead(m_overheads);
  return h;
}

}  // namespace

int run_main(const kernel_spec& spec, const bench_context& context, int argc, char** argv) {
  keep_freed_host_memory();  // before the first input set (harness/host_memory.hpp)
  options opts;
  try {
    const command_line line = take_options(argc, argv);
    if (line.m_request != request::run) {
      // KernelOpt's flags, then Google Benchmark's (help), or the version.
      std::fputs(line.m_text.c_str(), stdout);
      if (line.m_request == request::help) {
        std::fputs("\n", stdout);
        benchmark::PrintDefaultHelp();
      }
      return 0;
    }
    opts = line.m_options;
  } catch (const options_error& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return k_usage_status;
  }
  const benchmark_flags flags = read_benchmark_flags(argc, argv);
  if (!flags.m_out.empty()) {
    // Google Benchmark opens --benchmark_out itself and refuses a path whose
    // folder does not exist yet (the <k>.bench.<v> test may run before any
    // correctness test made <build>/kernelopt/<k>/results/).
    std::error_code error;
    const std::filesystem::path folder = std::filesystem::path(flags.m_out).parent_path();
    if (!folder.empty()) std::filesystem::create_directories(folder, error);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  std::optional<ceilings_file> limits;
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
  std::vector<const impl_spec*> impls = benchmarked_impls(spec, skipped);
  const std::vector<shape_spec>& shapes =
      opts.m_quick && !spec.m_quick_shapes.empty() ? spec.m_quick_shapes : spec.m_shapes;
  if (opts.m_quick && spec.m_quick_shapes.empty()) {
    std::fprintf(stderr, "kopt: %s declares no QUICK_SHAPES; --kopt_quick runs SHAPES\n", spec.m_name.c_str());
  }
  // Registration only names things: nothing here may touch the device.
  std::vector<bench_case> cases;
  const auto register_cases = [&] {
    cases.clear();
    for (const impl_spec* impl : impls) {
      for (const shape_spec& shape : shapes) cases.push_back({impl, &shape, spec.m_name + "/" + impl->m_name + "/" + shape.m_text});
    }
    for (const bench_case& c : cases) {
      benchmark::RegisterBenchmark(c.m_name.c_str(), [&run, &c](benchmark::State& state) { run.run(state, c); })
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMicrosecond);
    }
  };
  register_cases();

  if (flags.m_list_tests) {
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
  }

  // A filter that selects only implementations that do not run here (one
  // per CTest benchmark test) is a skip with their reason.
  const name_filter filter(flags.m_filter);
  const auto skip_if_nothing_runs = [&]() -> std::optional<std::string> {
    for (const bench_case& c : cases) {
      if (filter.selects(c.m_name)) return std::nullopt;
    }
    for (const not_benchmarked& s : skipped) {
      for (const shape_spec& shape : shapes) {
        if (filter.selects(spec.m_name + "/" + s.m_impl + "/" + shape.m_text)) return s.m_impl + ": " + s.m_reason;
      }
    }
    return std::nullopt;
  };
  if (const std::optional<std::string> reason = skip_if_nothing_runs()) {
    std::printf("SKIPPED: %s\n", reason->c_str());
    std::fflush(stdout);
    return k_skip_status;
  }

  the_watchdog().start(opts.m_timeout_s);
  const std::unique_ptr<backend> device = context.m_make_backend(opts);
  const std::string unavailable = device->unavailable_reason();
  if (!unavailable.empty()) {
    std::printf("SKIPPED: %s\n", unavailable.c_str());
    std::fflush(stdout);
    return k_skip_status;
  }
  // Implementations whose device code this device cannot run are not
  // benchmarked either, with the reason.
  std::vector<const impl_spec*> runnable;
  for (const impl_spec* impl : impls) {
    const std::string why = skip_reason(*impl, *device);
    if (why.empty()) {
      runnable.push_back(impl);
    } else {
      skipped.push_back({impl->m_name, why});
    }
  }
  if (runnable.size() != impls.size()) {
    impls = runnable;
    benchmark::ClearRegisteredBenchmarks();
    register_cases();
    if (const std::optional<std::string> reason = skip_if_nothing_runs()) {
      std::printf("SKIPPED: %s\n", reason->c_str());
      std::fflush(stdout);
      return k_skip_status;
    }
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
  std::optional<gpu_claim_info> claim;
  try {
    claim = device->claim(true);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
  std::vector<const bench_case*> selected;
  for (const bench_case& c : cases) {
    if (filter.selects(c.m_name)) selected.push_back(&c);
  }
  const std::unique_ptr<backend> host = make_host_backend();
  run.attach(*device, *host, *engine, std::move(selected));
  benchmark::AddCustomContext("kopt_kernel", spec.m_name);
  benchmark::AddCustomContext("kernelopt_version", kernelopt_version());
  benchmark::AddCustomContext("kopt_device", device->device_name());

  const std::int64_t started_ns = unix_now_ns();
  // The JSON file is written by result_reporter (Google Benchmark's own
  // JSON plus the kopt rows); other formats are Google Benchmark's alone.
  std::unique_ptr<result_reporter> reporter;
  if (!flags.m_out.empty() && flags.m_out_format == "json") {
    reporter = std::make_unique<result_reporter>(
        flags.m_out, [&run](const std::string& name) { return run.take_row(name); },
        [&]() {
          bench_header h = run.header(context.m_backend, skipped);
          // Which GPU, and when it was held: `kopt overlap` checks from these
          // that no two benchmark runs shared a GPU.
          h.m_gpu = device->identity();
          h.m_claim = claim;
          h.m_started_unix_ns = started_ns;
          h.m_finished_unix_ns = unix_now_ns();
          return h;
        });
  }
  benchmark::RunSpecifiedBenchmarks(nullptr, reporter.get());

  const std::string overhead = overhead_text(run.overheads());
  if (!overhead.empty()) std::fprintf(stderr, "%s\n", overhead.c_str());
  int status = run.failures() > 0 ? 1 : 0;
  if (run.failures() > 0) {
    // After every row's error, on the same stream: an expected failure's
    // test (EXPECT_FAILURE) matches the error, then this line.
    std::printf("kopt bench: %zu of %zu benchmarks failed\n", run.failed_count(),
                std::max(run.failed_count(), run.selected_count()));
    std::fflush(stdout);
  }
  if (reporter && !reporter->error().empty()) {
    std::fprintf(stderr, "%s: writing %s: %s\n", argv[0], flags.m_out.c_str(), reporter->error().c_str());
    status = 1;
  }
  benchmark::Shutdown();
  return status;
}

}  // namespace kopt::bench
