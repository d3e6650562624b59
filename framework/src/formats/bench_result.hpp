// The benchmark result (`<k>_kopt_bench --benchmark_out=FILE`): Google
// Benchmark's JSON, which its tools/compare.py reads, with a `kopt` object
// at the top and in every benchmark run. One type for the writer (the
// benchmark's reporter, bench/reporter.hpp) and the readers (kopt record,
// perf and compare through kopt/inputs/bench.hpp, kopt overlap through
// kopt/run/gpu_schedule.hpp). Plain Google Benchmark JSON reads as a
// bench_result without `kopt` parts.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/json_io.hpp"
#include "formats/ceilings.hpp"
#include "formats/clocks.hpp"
#include "formats/field_doc.hpp"
#include "formats/gpu.hpp"
#include "formats/timing_settings.hpp"
#include "formats/timing_stats.hpp"

namespace kopt {

inline constexpr const char* k_bench_kind = "kernelopt.bench";
inline constexpr int k_bench_schema_version = 1;

// Google Benchmark's own fields of one run, named as its JSONReporter names
// them (1.7 / 1.8), in its order. Read back, only what kopt uses is read:
// name, run_name, run_type, aggregate_name, error_occurred / error_message,
// repetitions, real_time, time_unit; the rest is left to Google Benchmark's
// tools.
struct gbench_run {
  std::string m_name;  // "<k>/<impl>/<shape>/iterations:1/manual_time"
  std::int64_t m_family_index = 0;
  std::int64_t m_per_family_instance_index = 0;
  std::string m_run_name;
  std::string m_run_type = "iteration";  // iteration | aggregate
  std::int64_t m_repetitions = 1;
  std::int64_t m_repetition_index = 0;   // iteration runs
  std::int64_t m_threads = 1;
  std::string m_aggregate_name;          // aggregate runs: mean, median, stddev, cv
  std::string m_aggregate_unit;          // aggregate runs: time | percentage
  std::optional<std::string> m_error_message;  // error_occurred (SkipWithError)
  std::optional<std::string> m_skip_message;   // skipped (Google Benchmark 1.8's SkipWithMessage)
  std::int64_t m_iterations = 0;
  std::optional<double> m_real_time;  // in m_time_unit; the median of the samples
  std::optional<double> m_cpu_time;
  std::string m_time_unit;            // ns | us | ms | s
  std::vector<std::pair<std::string, double>> m_counters;  // user counters, flat in the run
  std::string m_label;

  [[nodiscard]] bool aggregate() const { return m_run_type == "aggregate"; }
};

// kopt.output_check: the benchmark's own check of what it timed
// (docs/benchmarking.md, "What is timed is checked").
struct output_check_summary {
  std::string m_status;  // pass | fail | unavailable (the kernel declares no REFERENCE)
  // Known when the checked launches ran (not when the inputs could not be prepared).
  std::optional<std::int64_t> m_checked_launches;
  std::optional<std::int64_t> m_input_sets;
  std::vector<double> m_fresh_samples_ns;
  std::optional<std::string> m_detail;  // pass / fail: why it failed; nullopt when it passed
  std::string m_reason;                 // unavailable: why

  // The reason, else the detail: what a record keeps ("" when there is none).
  [[nodiscard]] std::string explanation() const { return !m_reason.empty() ? m_reason : m_detail.value_or(""); }
};

// kopt.rounds: the implementations sampled in the same interleaved rounds
// (bench/interleave.hpp) and this one's median per round.
struct interleaved_rounds {
  std::string m_order = "abba";
  std::int64_t m_block = 0;
  std::int64_t m_count = 0;
  std::vector<std::string> m_window;  // in order
  std::vector<double> m_medians_ns;   // each > 0
};

// Where one shape's benchmark spent its wall time, in seconds; shared by
// the rows of the shape (docs/formats.md, `phases_s`).
struct shape_phases {
  double m_inputs_s = 0;        // input sets made, their reference results, uploaded
  double m_checks_s = 0;        // checked launches before and after the timed window
  double m_timing_s = 0;        // warm-up and the interleaved timed window
  double m_fresh_inputs_s = 0;  // the fresh-content check (new inputs, their references, samples)
};

// One benchmark run's `kopt` object. A row is one of: timed (the timing
// statistics and what goes with them), failed (m_error), or profiled
// (--kopt_profile: one launch, no timing).
struct bench_row {
  std::string m_kernel;
  std::string m_impl;
  std::string m_role;   // variant | reference | baseline; "" for a plain Google Benchmark row
  std::string m_shape;  // "rows=4096,cols=4096"
  std::vector<std::pair<std::string, std::int64_t>> m_dims;  // in DIMS order
  std::optional<std::string> m_error;  // the benchmark failed: why
  bool m_profiled = false;             // mode "profile", launches_profiled 1
  // Timed rows:
  timing_stats m_stats;
  std::optional<double> m_mean_ns;
  std::optional<double> m_min_ns;
  std::optional<double> m_max_ns;
  std::optional<double> m_total_time_s;  // accumulated sample time
  std::string m_stop_reason;
  std::vector<double> m_samples_ns;      // every m_samples_ns_stride-th sample, at most 1000
  std::int64_t m_samples_ns_stride = 1;
  std::optional<double> m_flops;  // the work model at this shape (FLOPS, BYTES); nullopt: not declared
  std::optional<double> m_bytes;
  std::optional<double> m_tflops;
  std::optional<double> m_gbps;
  std::optional<ceiling_fractions> m_pct_of_ceiling;  // nullopt: no --kopt_ceilings
  std::optional<second_clock> m_second_clock;  // the engine's second clock (CUPTI), or why there is none
  std::optional<clock_window> m_clock;         // NVML clocks over the window; nullopt (null) on the host
  std::vector<std::string> m_flags;
  std::optional<interleaved_rounds> m_rounds;
  // Timed and failed rows (none in a plain Google Benchmark file, or a bench older than the check):
  std::optional<output_check_summary> m_output_check;
  std::optional<shape_phases> m_phases;  // none from a bench older than the field

  [[nodiscard]] bool timed() const { return !m_error && !m_profiled; }
};

struct not_benchmarked {
  std::string m_impl;
  std::string m_reason;
};

// The engine's fields of the top-level kopt.timing, after the settings:
// which clock, its resolution, the flush sizes. Each engine writes its own
// (host: cache_flush_bytes; CUDA: l2_bytes, launch_blocking_timeout_s,
// second_clock); nullopt: not written (another engine's, or an older file).
struct engine_timing {
  std::optional<std::int64_t> m_cache_flush_bytes;       // host: bytes written between samples
  std::optional<std::int64_t> m_l2_bytes;                // CUDA: the device's L2
  std::optional<std::string> m_clock;                    // steady_clock | cuda_event
  std::optional<double> m_clock_resolution_ns;
  std::optional<double> m_launch_blocking_timeout_s;     // CUDA: the spin kernel's timeout
  std::optional<std::string> m_second_clock;             // CUDA: cupti | off
};

// kopt.overhead: harness time per sample (wall minus device) and the
// second clock's added cost per launch; medians over the run, and per
// benchmark (in run order). A value that is not finite is nullopt (null).
struct overhead_values {
  std::optional<double> m_harness_ns_per_sample;
  std::optional<double> m_cupti_ns_per_launch;
};
struct overhead_summary {
  overhead_values m_median;
  std::int64_t m_benchmarks = 0;
  std::vector<std::pair<std::string, overhead_values>> m_per_benchmark;
};

// The top-level `kopt` object.
struct bench_header {
  std::string m_kernel;
  std::optional<std::string> m_kernelopt_version;  // the KernelOpt that wrote it (none before 0.2.0's stamp)
  std::string m_backend;  // cuda | host
  std::optional<std::string> m_device;
  std::optional<std::int64_t> m_device_index;
  std::string m_mode = "measure";    // measure | profile (no timing: kopt refuses it as timing input)
  std::string m_shape_set = "full";  // full | quick (--kopt_quick)
  std::optional<timing_settings> m_timing;
  engine_timing m_engine_timing;  // kopt.timing's engine fields (clock, resolution, ...), beside the settings
  std::optional<std::string> m_ceilings;  // the --kopt_ceilings file as given
  std::vector<not_benchmarked> m_not_benchmarked;
  std::optional<overhead_summary> m_overhead;  // nullopt (null): not written
  std::optional<gpu_info> m_gpu;          // which GPU (formats/gpu.hpp); nullopt (null) for the host
  std::optional<gpu_claim_info> m_claim;  // the per-GPU lock the process held; nullopt (null) for the host
  std::optional<std::int64_t> m_started_unix_ns;  // wall clock around the benchmark loop
  std::optional<std::int64_t> m_finished_unix_ns;
};

struct bench_entry {
  gbench_run m_run;
  std::optional<bench_row> m_kopt;  // iteration runs of `<k>_kopt_bench` (aggregates get none)
};

struct bench_result {
  json m_context;                      // Google Benchmark's context
  std::optional<bench_header> m_kopt;  // none in plain Google Benchmark JSON
  std::vector<bench_entry> m_benchmarks;
};

[[nodiscard]] json to_json(const bench_result& result);
[[nodiscard]] json to_json(const bench_row& row);
[[nodiscard]] json to_json(const bench_header& header);

// Throws format_error naming the file and the JSON path. A kopt row's
// timing is checked (times > 0, counts >= 1, fractions >= 0); a timed row
// without median_ns reads as failed ("no median").
[[nodiscard]] bench_result bench_result_from_json(const json_reader& root);
[[nodiscard]] bench_row bench_row_from_json(const json_reader& kopt);
[[nodiscard]] bench_header bench_header_from_json(const json_reader& kopt);
[[nodiscard]] gbench_run gbench_run_from_json(const json_reader& run);
[[nodiscard]] bench_result read_bench_result(const std::filesystem::path& path);

[[nodiscard]] json to_json(const overhead_summary& overhead);

// Tables: the file, the top-level kopt object, a run, its kopt row, output_check, rounds,
// the engine's timing fields, overhead
// (the timing settings and statistics have their own tables).
[[nodiscard]] std::vector<format_table> bench_tables();

}  // namespace kopt
