#include "cuda/cuda_bench_main.hpp"

#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "bench/driver.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/cupti_clock.hpp"
#include "cuda/nvml.hpp"

#include "bench/sampler.hpp"
#include "cuda/timer.hpp"

namespace kopt::cuda {
namespace {

using bench::launch_fn;
using bench::measurement;
using bench::sampler_settings;

// The event pair sees the front end start the first launch and retire the
// last; CUPTI's kernel timestamps do not. This much difference is allowed
// whatever the noise (see bench::compare_clocks). Measured with
// tools/gpu/bench_validation.sh on an H200 (2026-11-21): events minus the
// CUPTI span is a fixed 2.1-2.7 us for single-kernel launches from 3 us to
// 2 ms (docs/benchmarking.md), so the floor sits above that.
constexpr double k_clock_floor_ns = 3500.0;
// CUPTI samples are read in batches: one forced flush per batch.
constexpr std::uint64_t k_cupti_batch = 16;

second_clock unavailable_clock(const std::string& reason) { return second_clock::unavailable("cupti", reason); }

std::vector<clock_kernel> clock_kernels(const std::vector<kernel_summary>& kernels) {
  std::vector<clock_kernel> list;
  for (const kernel_summary& k : kernels) {
    clock_kernel c;
    c.m_name = k.m_name;
    for (std::size_t i = 0; i < 3; ++i) {
      c.m_grid[i] = k.m_grid[i];
      c.m_block[i] = k.m_block[i];
    }
    c.m_registers = k.m_registers;
    c.m_static_smem = k.m_static_smem;
    c.m_dynamic_smem = k.m_dynamic_smem;
    c.m_stream = k.m_stream;
    c.m_median_ns = k.m_median_ns;
    c.m_launches_per_sample = k.m_launches_per_sample;
    list.push_back(std::move(c));
  }
  return list;
}

class cuda_engine final : public bench::timing_engine {
 public:
  cuda_engine(backend& device, const bench::options& opts)
      : m_device(device),
        m_stream(static_cast<cudaStream_t>(device.stream())),
        m_timer(device.device_index(), m_stream),
        m_monitor(device.device_index()),
        m_use_cupti(!opts.m_no_cupti) {}

  [[nodiscard]] engine_timing timing_fields() const override {
    engine_timing t;
    t.m_l2_bytes = static_cast<std::int64_t>(m_timer.l2_bytes());
    t.m_clock = "cuda_event";
    t.m_clock_resolution_ns = event_timer::k_resolution_ns;
    t.m_launch_blocking_timeout_s = event_timer::k_block_timeout_s;
    t.m_second_clock = m_use_cupti ? "cupti" : "off";
    return t;
  }

  [[nodiscard]] std::optional<std::int64_t> l2_flush_bytes() const override {
    return static_cast<std::int64_t>(m_timer.l2_flush_bytes());
  }

  [[nodiscard]] double resolution_ns() const override { return event_timer::k_resolution_ns; }

  void begin_window() override {
    m_timer.reset_blocking();
    m_monitor.begin();
  }
  void poll() override { m_monitor.poll(); }
  [[nodiscard]] bench::window_state end_window() override {
    m_monitor.finish();
    bench::window_state w;
    w.m_clock = m_monitor.window();
    w.m_throttled = m_monitor.throttled();
    w.m_launch_not_hidden = m_timer.blocking_timeouts() > 0;
    return w;
  }

  // Unblocked: lazy module loading may synchronize, which a blocked stream
  // would turn into a timeout.
  void warm(const launch_fn& launch) override {
    launch();
    m_device.synchronize("the first launch");
  }

  [[nodiscard]] double sample_ns(const launch_fn& launch) override { return m_timer.sample_ns(launch); }

  void second_clock(const launch_fn& launch, const sampler_settings& settings, measurement& m) override {
    if (m_use_cupti) {
      cupti_pass(launch, settings, m);
    } else {
      m.m_second_clock = unavailable_clock("disabled by --kopt_no_cupti");
    }
  }

  void profile(const launch_fn& launch, std::size_t warmup) override {
    for (std::size_t i = 0; i < warmup; ++i) launch();
    m_device.synchronize("the warm-up launches");
    check(cudaProfilerStart(), "cudaProfilerStart", "profiling one launch");
    launch();
    const cudaError_t launched = cudaGetLastError();
    const cudaError_t finished = cudaDeviceSynchronize();
    check(cudaProfilerStop(), "cudaProfilerStop", "profiling one launch");
    check(launched, "cudaGetLastError", "the profiled launch");
    check(finished, "cudaDeviceSynchronize", "the profiled launch");
  }

 private:
  // Second pass with CUPTI on: same cold samples, each launch tagged with
  // its sample's id. Stops by the sampler's rules with min_time 0, a third
  // of the timeout, and no more samples than the event pass took.
  void cupti_pass(const launch_fn& launch, const sampler_settings& primary_settings, measurement& m) {
    const std::string why = m_cupti.begin();
    if (!why.empty()) {
      m.m_second_clock = unavailable_clock(why);
      return;
    }
    sampler_settings settings = primary_settings;
    settings.m_min_time_s = 0;
    settings.m_timeout_s = primary_settings.m_timeout_s / 3;
    settings.m_max_samples = std::max(primary_settings.m_min_samples, m.m_primary.m_stats.m_count);
    settings.m_resolution_ns = 0;  // CUPTI timestamps are in ns

    bench::sampler spans(settings);
    std::vector<double> event_times;
    std::uint64_t next = 0;
    try {
      (void)m_timer.sample_ns(launch);  // untagged: first launch with CUPTI attached
      const double start = bench::steady_now_s();
      for (;;) {
        const std::uint64_t first = next;
        for (std::uint64_t i = 0; i < k_cupti_batch; ++i, ++next) {
          const std::uint64_t id = next;
          event_times.push_back(m_timer.sample_ns([&] {
            const correlation_scope scope(m_cupti, id);
            launch();
          }));
        }
        m_cupti.flush();
        for (std::uint64_t id = first; id < next; ++id) {
          if (const std::optional<double> span = m_cupti.span_ns(id)) spans.add(*span);
        }
        if (spans.samples().empty() && next >= 4 * k_cupti_batch) break;  // nothing is being recorded
        if (spans.check(bench::steady_now_s() - start).m_kind != bench::stop_kind::running) break;
        if (bench::steady_now_s() - start >= settings.m_timeout_s) break;
      }
    } catch (...) {
      m_cupti.end();
      throw;
    }
    m_cupti.end();

    // Final values from every record, including ones delivered late.
    std::vector<double> all_spans;
    for (std::uint64_t id = 0; id < next; ++id) {
      if (const std::optional<double> span = m_cupti.span_ns(id)) all_spans.push_back(*span);
    }
    if (all_spans.empty()) {
      m.m_second_clock = unavailable_clock("CUPTI recorded no kernel, memcpy or memset of the implementation");
      return;
    }
    const bench::sample_stats second = bench::compute_stats(all_spans, 0);
    const bench::sample_stats& primary = m.m_primary.m_stats;
    const bench::clock_agreement agreement =
        bench::compare_clocks(primary.m_median, primary.m_noise, second.m_median, second.m_noise, k_clock_floor_ns);
    m.m_second_clock_cost_ns = bench::compute_stats(event_times, 0).m_median - primary.m_median;

    const auto number = [](double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; };
    kopt::second_clock measured;
    measured.m_source = "cupti";
    measured.m_available = true;
    measured.m_median_ns = second.m_median;
    measured.m_agreement = agreement.m_agree ? "ok" : "disagree";
    measured.m_difference = number(agreement.m_difference);
    measured.m_bound = number(agreement.m_bound);
    measured.m_samples = static_cast<std::int64_t>(second.m_count);
    measured.m_noise = number(second.m_noise);
    measured.m_dropped_records = static_cast<std::int64_t>(m_cupti.dropped());
    measured.m_kernels = clock_kernels(m_cupti.kernels());
    m.m_second_clock = std::move(measured);
    if (!agreement.m_agree) m.m_flags.emplace_back("clock_disagreement");
  }

  backend& m_device;
  cudaStream_t m_stream;
  event_timer m_timer;
  clock_monitor m_monitor;
  cupti_clock m_cupti;
  bool m_use_cupti;
};

}  // namespace

int run_cuda_bench_main(const kernel_spec& spec, int argc, char** argv) {
  bench::bench_context context;
  context.m_backend = "cuda";
  context.m_make_backend = [](const bench::options& opts) {
    return make_backend(opts.m_device ? *opts.m_device : assigned_device());
  };
  context.m_make_engine = [](backend& device, const bench::options& opts) -> std::unique_ptr<bench::timing_engine> {
    return std::make_unique<cuda_engine>(device, opts);
  };
  return bench::run_main(spec, context, argc, argv);
}

}  // namespace kopt::cuda
