#include "formats/bench_result.hpp"

namespace kopt {
namespace {

// ---- field tables (docs/formats.md, "Benchmark JSON") ----------------------------

const std::vector<field_doc> k_engine_timing_fields = {
    {"cache_flush_bytes", "integer", "host: bytes written between samples to flush the caches"},
    {"l2_bytes", "integer", "CUDA: the device's L2 size (flushed between samples)"},
    {"clock", "string", "`steady_clock` (host) or `cuda_event`"},
    {"clock_resolution_ns", "number", "the clock's resolution"},
    {"launch_blocking_timeout_s", "number", "CUDA: the timeout of the spin kernel that hides launch latency"},
    {"second_clock", "string", "CUDA: `cupti`, or `off` (`--kopt_no_cupti`)"},
};

const std::vector<field_doc> k_overhead_fields = {
    {"harness_ns_per_sample", "number | null", "wall minus device time per sample, median over the run"},
    {"cupti_ns_per_launch", "number | null", "the second clock's added cost per launch, median; `null` without it"},
    {"benchmarks", "integer", "benchmarks in the run"},
    {"per_benchmark", "object", "the same two values per benchmark, by name"},
};

const std::vector<field_doc> k_header_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.bench`"},
    {"kernel", "string", "the kernel's name"},
    {"kernelopt_version", "string | null", "the KernelOpt version that wrote the file (absent in older files)"},
    {"backend", "string", "`cuda` or `host`"},
    {"device", "string | null", "the device's name"},
    {"device_index", "integer | null", "the CUDA ordinal; -1 on the host"},
    {"mode", "string", "`measure`, or `profile` (`--kopt_profile`: no timing; kopt refuses it as timing input)"},
    {"shape_set", "string", "`full`, or `quick` (`--kopt_quick`: QUICK_SHAPES)"},
    {"timing", "object", "the timing settings, then the engine's fields (clock, resolution, cache flush)"},
    {"ceilings", "string | null", "the `--kopt_ceilings` file as given"},
    {"not_benchmarked", "array", "`{impl, reason}` for each implementation not timed (a host or f64 reference)"},
    {"overhead", "object", "harness time per sample and the CUPTI cost per launch, medians over the run"},
    {"gpu", "object | null", "which GPU (the `gpu` table); `null` on the host"},
    {"claim", "object | null", "the exclusive per-GPU lock held while timing (the `claim` table); `null` on the host"},
    {"started_unix_ns", "integer", "wall clock when the benchmark loop started"},
    {"finished_unix_ns", "integer", "wall clock when it ended"},
};

const std::vector<field_doc> k_file_fields = {
    {"context", "object", "Google Benchmark's context (date, host, CPUs, caches, load, custom context)"},
    {"kopt", "object", "KernelOpt's top-level object (absent in plain Google Benchmark JSON)"},
    {"benchmarks", "array", "one entry per run Google Benchmark reported"},
};

const std::vector<field_doc> k_run_fields = {
    {"name", "string", "`<k>/<impl>/<shape>/iterations:1/manual_time`"},
    {"family_index", "integer", "Google Benchmark's benchmark family"},
    {"per_family_instance_index", "integer", "the instance within the family"},
    {"run_name", "string", "the run's name (without the aggregate suffix)"},
    {"run_type", "string", "`iteration`, or `aggregate` (`--benchmark_repetitions`)"},
    {"repetitions", "integer", "repetitions of the benchmark"},
    {"repetition_index", "integer", "iteration runs: which repetition"},
    {"threads", "integer", "threads (1)"},
    {"aggregate_name", "string", "aggregate runs: `mean`, `median`, `stddev`, `cv`"},
    {"aggregate_unit", "string", "aggregate runs: `time` or `percentage`"},
    {"error_occurred", "boolean", "only when the benchmark failed (SkipWithError)"},
    {"error_message", "string", "why it failed"},
    {"skipped", "boolean", "only when skipped with a message (Google Benchmark 1.8)"},
    {"skip_message", "string", "why it was skipped"},
    {"iterations", "integer", "iterations (1)"},
    {"real_time", "number", "the median of the samples, in `time_unit`"},
    {"cpu_time", "number", "the host CPU time of all the sampling, in `time_unit`"},
    {"time_unit", "string", "`ns`, `us`, `ms` or `s`"},
    {"label", "string", "only when the benchmark set one"},
    {"kopt", "object", "iteration runs of `<k>_kopt_bench`: KernelOpt's row"},
};

const std::vector<field_doc> k_row_fields = {
    {"kernel", "string", "the kernel"},
    {"impl", "string", "the implementation (variant, reference or baseline name)"},
    {"role", "string", "`variant`, `reference` or `baseline`"},
    {"shape", "string", "the shape as declared (`rows=4096,cols=4096`)"},
    {"dims", "object", "the shape's dimensions by name"},
    {"error", "string", "only when the benchmark failed: why (no timing then)"},
    {"mode", "string", "only with `--kopt_profile`: `profile` (no timing)"},
    {"launches_profiled", "integer", "only with `--kopt_profile`: 1"},
    {"mean_ns", "number | null", "mean of the samples, ns"},
    {"min_ns", "number | null", "fastest sample, ns"},
    {"max_ns", "number | null", "slowest sample, ns"},
    {"total_time_s", "number | null", "accumulated sample time"},
    {"stop_reason", "string", "why sampling stopped (noise below `max_noise`, or `timeout_s`)"},
    {"samples_ns", "array", "every `samples_ns_stride`-th sample, at most 1000"},
    {"samples_ns_stride", "integer", "the stride of `samples_ns`"},
    {"flops", "number | null", "FLOPS at this shape; `null` when not declared"},
    {"bytes", "number | null", "BYTES at this shape; `null` when not declared"},
    {"tflops", "number | null", "flops / median"},
    {"gbps", "number | null", "bytes / median"},
    {"pct_of_ceiling", "object | null", "fraction of each applicable ceiling; `null` without `--kopt_ceilings`"},
    {"second_clock", "object", "the CUPTI clock over the same launches, or why there is none (the `second_clock` table)"},
    {"clock", "object | null", "NVML clocks over the measurement window (the `clock` table); `null` on the host"},
    {"flags", "array",
     "`clock_disagreement`, `throttled`, `noise_above_bound`, `launch_not_hidden`, `timed_on_fresh_inputs`"},
    {"rounds", "object | null", "the interleaved rounds this was sampled in"},
    {"output_check", "object | null", "the benchmark's own check of what it timed"},
    {"phases_s", "object", "where this shape's benchmark spent its wall time, shared by its rows (the `phases_s` table); "
                             "absent in profile rows and from a bench older than the field"},
};

const std::vector<field_doc> k_phases_fields = {
    {"inputs", "number", "seconds making the input sets, their reference results, and uploading them"},
    {"checks", "number", "seconds in the checked launches before and after the timed window"},
    {"timing", "number", "seconds in the warm-up and the interleaved timed window"},
    {"fresh_inputs", "number", "seconds in the fresh-content check: new inputs, their references, their samples"},
};

const std::vector<field_doc> k_output_check_fields = {
    {"status", "string", "`pass`, `fail`, or `unavailable` (no REFERENCE)"},
    {"checked_launches", "integer", "checked launches made (absent when the inputs could not be prepared)"},
    {"input_sets", "integer", "input sets of distinct content rotated while sampling"},
    {"fresh_samples_ns", "array", "samples on inputs the implementation had not seen"},
    {"detail", "string | null", "`pass` / `fail`: why it failed, `null` when it passed"},
    {"reason", "string", "`unavailable`: why"},
};

const std::vector<field_doc> k_rounds_fields = {
    {"order", "string", "`abba`"},
    {"block", "integer", "this implementation's samples per round (each implementation's block is sized from its own "
                          "warm-up samples)"},
    {"count", "integer", "rounds"},
    {"window", "array", "the implementations sampled in the same rounds, in order"},
    {"medians_ns", "array", "this implementation's median per round (each > 0)"},
};

// ---- reading helpers ------------------------------------------------------------------

std::optional<double> optional_positive(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_positive();
}

std::optional<double> optional_non_negative(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_non_negative();
}

std::optional<std::string> optional_string(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_string();
}

std::vector<std::string> strings(const json_reader& node) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < node.size(); ++i) out.push_back(node.at(i).as_string());
  return out;
}

std::vector<double> non_negative_numbers(const json_reader& node) {
  std::vector<double> out;
  for (std::size_t i = 0; i < node.size(); ++i) out.push_back(node.at(i).as_non_negative());
  return out;
}

json object_or_null(const json_reader& node, const char* key) { return node.has(key) ? node.at(key).raw() : json(); }

// ---- pieces -----------------------------------------------------------------------------

json to_json(const gbench_run& r) {
  json j = {{"name", r.m_name},
            {"family_index", r.m_family_index},
            {"per_family_instance_index", r.m_per_family_instance_index},
            {"run_name", r.m_run_name},
            {"run_type", r.m_run_type},
            {"repetitions", r.m_repetitions}};
  if (!r.aggregate()) j["repetition_index"] = r.m_repetition_index;
  j["threads"] = r.m_threads;
  if (r.aggregate()) {
    j["aggregate_name"] = r.m_aggregate_name;
    j["aggregate_unit"] = r.m_aggregate_unit;
  }
  if (r.m_error_message) {
    j["error_occurred"] = true;
    j["error_message"] = *r.m_error_message;
  } else if (r.m_skip_message) {
    j["skipped"] = true;
    j["skip_message"] = *r.m_skip_message;
  }
  j["iterations"] = r.m_iterations;
  j["real_time"] = number_or_null(r.m_real_time);
  j["cpu_time"] = number_or_null(r.m_cpu_time);
  j["time_unit"] = r.m_time_unit;
  for (const auto& [name, value] : r.m_counters) j[name] = value;
  if (!r.m_label.empty()) j["label"] = r.m_label;
  return j;
}

json to_json(const output_check_summary& c) {
  json j = {{"status", c.m_status}};
  if (c.m_status == "unavailable") {
    j["reason"] = c.m_reason;
    return j;
  }
  if (c.m_checked_launches) {
    j["checked_launches"] = *c.m_checked_launches;
    j["input_sets"] = c.m_input_sets.value_or(0);
    j["fresh_samples_ns"] = c.m_fresh_samples_ns;
  }
  j["detail"] = c.m_detail ? json(*c.m_detail) : json(nullptr);
  return j;
}

output_check_summary output_check_from_json(const json_reader& node) {
  output_check_summary c;
  c.m_status = node.at("status").as_string();
  if (c.m_status != "pass" && c.m_status != "fail" && c.m_status != "unavailable") {
    node.at("status").fail("expected \"pass\", \"fail\" or \"unavailable\"");
  }
  if (node.has("checked_launches")) c.m_checked_launches = node.at("checked_launches").as_non_negative_integer();
  if (node.has("input_sets")) c.m_input_sets = node.at("input_sets").as_non_negative_integer();
  if (node.has("fresh_samples_ns")) c.m_fresh_samples_ns = non_negative_numbers(node.at("fresh_samples_ns"));
  c.m_detail = optional_string(node, "detail");
  c.m_reason = optional_string(node, "reason").value_or("");
  return c;
}

json to_json(const shape_phases& p) {
  return {{"inputs", p.m_inputs_s}, {"checks", p.m_checks_s}, {"timing", p.m_timing_s},
          {"fresh_inputs", p.m_fresh_inputs_s}};
}

shape_phases shape_phases_from_json(const json_reader& node) {
  shape_phases p;
  p.m_inputs_s = node.at("inputs").as_non_negative();
  p.m_checks_s = node.at("checks").as_non_negative();
  p.m_timing_s = node.at("timing").as_non_negative();
  p.m_fresh_inputs_s = node.at("fresh_inputs").as_non_negative();
  return p;
}

json to_json(const interleaved_rounds& r) {
  return {{"order", r.m_order},
          {"block", r.m_block},
          {"count", r.m_count},
          {"window", r.m_window},
          {"medians_ns", r.m_medians_ns}};
}

interleaved_rounds rounds_from_json(const json_reader& node) {
  interleaved_rounds r;
  if (node.has("order")) r.m_order = node.at("order").as_string();
  if (node.has("block")) r.m_block = node.at("block").as_non_negative_integer();
  if (node.has("count")) r.m_count = node.at("count").as_non_negative_integer();
  const json_reader medians = node.at("medians_ns");
  for (std::size_t i = 0; i < medians.size(); ++i) {
    const double median = medians.at(i).as_number();
    if (!(median > 0)) medians.at(i).fail("a round's median must be > 0");
    r.m_medians_ns.push_back(median);
  }
  r.m_window = strings(node.at("window"));
  return r;
}

}  // namespace

json to_json(const bench_row& row) {
  json dims = json::object();
  for (const auto& [name, value] : row.m_dims) dims[name] = value;
  json j = {{"kernel", row.m_kernel},
            {"impl", row.m_impl},
            {"role", row.m_role},
            {"shape", row.m_shape},
            {"dims", dims}};
  if (row.m_profiled) {
    j["mode"] = "profile";
    j["launches_profiled"] = 1;
    return j;
  }
  if (row.m_error) {
    j["error"] = *row.m_error;
    if (row.m_output_check) j["output_check"] = to_json(*row.m_output_check);
    if (row.m_phases) j["phases_s"] = to_json(*row.m_phases);
    return j;
  }
  add_to_json(row.m_stats, j);
  j["mean_ns"] = number_or_null(row.m_mean_ns);
  j["min_ns"] = number_or_null(row.m_min_ns);
  j["max_ns"] = number_or_null(row.m_max_ns);
  j["total_time_s"] = number_or_null(row.m_total_time_s);
  j["stop_reason"] = row.m_stop_reason;
  j["samples_ns"] = row.m_samples_ns;
  j["samples_ns_stride"] = row.m_samples_ns_stride;
  j["flops"] = number_or_null(row.m_flops);
  j["bytes"] = number_or_null(row.m_bytes);
  j["tflops"] = number_or_null(row.m_tflops);
  j["gbps"] = number_or_null(row.m_gbps);
  j["pct_of_ceiling"] = fractions_to_json(row.m_pct_of_ceiling);
  j["second_clock"] = row.m_second_clock ? to_json(*row.m_second_clock) : json(nullptr);
  j["clock"] = row.m_clock ? to_json(*row.m_clock) : json(nullptr);
  j["flags"] = row.m_flags;
  j["rounds"] = row.m_rounds ? to_json(*row.m_rounds) : json(nullptr);
  j["output_check"] = row.m_output_check ? to_json(*row.m_output_check) : json(nullptr);
  if (row.m_phases) j["phases_s"] = to_json(*row.m_phases);
  return j;
}

namespace {

json to_json(const overhead_values& v) {
  return {{"harness_ns_per_sample", number_or_null(v.m_harness_ns_per_sample)},
          {"cupti_ns_per_launch", number_or_null(v.m_cupti_ns_per_launch)}};
}

overhead_values overhead_values_from_json(const json_reader& node) {
  if (!node.raw().is_object()) node.fail("expected an object (harness_ns_per_sample, cupti_ns_per_launch)");
  overhead_values v;
  if (node.has("harness_ns_per_sample")) v.m_harness_ns_per_sample = node.at("harness_ns_per_sample").as_number();
  if (node.has("cupti_ns_per_launch")) v.m_cupti_ns_per_launch = node.at("cupti_ns_per_launch").as_number();
  return v;
}

overhead_summary overhead_from_json(const json_reader& node) {
  overhead_summary o;
  o.m_median = overhead_values_from_json(node);
  o.m_benchmarks = node.at("benchmarks").as_non_negative_integer();
  const json_reader per = node.at("per_benchmark");
  if (!per.raw().is_object()) per.fail("expected an object of benchmarks");
  for (const auto& item : per.raw().items()) {
    o.m_per_benchmark.emplace_back(item.key(), overhead_values_from_json(per.at(item.key())));
  }
  return o;
}

}  // namespace

json to_json(const overhead_summary& overhead) {
  json per = json::object();
  for (const auto& [name, values] : overhead.m_per_benchmark) per[name] = to_json(values);
  json j = to_json(overhead.m_median);
  j["benchmarks"] = overhead.m_benchmarks;
  j["per_benchmark"] = std::move(per);
  return j;
}

json to_json(const bench_header& h) {
  json timing = nullptr;  // not stated (a header made without settings)
  if (h.m_timing) {
    timing = to_json(*h.m_timing);
    const engine_timing& e = h.m_engine_timing;
    if (e.m_cache_flush_bytes) timing["cache_flush_bytes"] = *e.m_cache_flush_bytes;
    if (e.m_l2_bytes) timing["l2_bytes"] = *e.m_l2_bytes;
    if (e.m_clock) timing["clock"] = *e.m_clock;
    if (e.m_clock_resolution_ns) timing["clock_resolution_ns"] = *e.m_clock_resolution_ns;
    if (e.m_launch_blocking_timeout_s) timing["launch_blocking_timeout_s"] = *e.m_launch_blocking_timeout_s;
    if (e.m_second_clock) timing["second_clock"] = *e.m_second_clock;
  }
  json not_run = json::array();
  for (const not_benchmarked& n : h.m_not_benchmarked) not_run.push_back({{"impl", n.m_impl}, {"reason", n.m_reason}});
  const auto optional_integer = [](const std::optional<std::int64_t>& v) { return v ? json(*v) : json(nullptr); };
  return {{"schema_version", k_bench_schema_version},
          {"kind", k_bench_kind},
          {"kernel", h.m_kernel},
          {"kernelopt_version", h.m_kernelopt_version ? json(*h.m_kernelopt_version) : json(nullptr)},
          {"backend", h.m_backend},
          {"device", h.m_device ? json(*h.m_device) : json(nullptr)},
          {"device_index", optional_integer(h.m_device_index)},
          {"mode", h.m_mode},
          {"shape_set", h.m_shape_set},
          {"timing", timing},
          {"ceilings", h.m_ceilings ? json(*h.m_ceilings) : json(nullptr)},
          {"not_benchmarked", not_run},
          {"overhead", h.m_overhead ? to_json(*h.m_overhead) : json(nullptr)},
          {"gpu", to_json(h.m_gpu)},
          {"claim", to_json(h.m_claim)},
          {"started_unix_ns", optional_integer(h.m_started_unix_ns)},
          {"finished_unix_ns", optional_integer(h.m_finished_unix_ns)}};
}

json to_json(const bench_result& result) {
  json doc = json::object();
  doc["context"] = result.m_context;
  if (result.m_kopt) doc["kopt"] = to_json(*result.m_kopt);
  json benchmarks = json::array();
  for (const bench_entry& e : result.m_benchmarks) {
    json run = to_json(e.m_run);
    if (e.m_kopt) run["kopt"] = to_json(*e.m_kopt);
    benchmarks.push_back(std::move(run));
  }
  doc["benchmarks"] = std::move(benchmarks);
  return doc;
}

gbench_run gbench_run_from_json(const json_reader& run) {
  gbench_run r;
  r.m_name = run.at("name").as_string();
  if (run.has("run_name")) r.m_run_name = run.at("run_name").as_string();
  if (run.has("run_type")) r.m_run_type = run.at("run_type").as_string();
  if (run.has("aggregate_name")) r.m_aggregate_name = run.at("aggregate_name").as_string();
  if (run.has("repetitions")) r.m_repetitions = run.at("repetitions").as_count();
  if (run.has("error_occurred") && run.at("error_occurred").as_bool()) {
    r.m_error_message = optional_string(run, "error_message").value_or("error");
  }
  if (run.has("skipped") && run.at("skipped").as_bool()) {
    r.m_skip_message = optional_string(run, "skip_message").value_or("skipped");
  }
  if (run.has("real_time")) r.m_real_time = run.at("real_time").as_number();
  if (run.has("time_unit")) r.m_time_unit = run.at("time_unit").as_string();
  return r;
}

bench_row bench_row_from_json(const json_reader& k) {
  bench_row row;
  if (k.has("kernel")) row.m_kernel = k.at("kernel").as_string();
  row.m_impl = k.at("impl").as_string();
  row.m_role = k.at("role").as_string();
  row.m_shape = k.at("shape").as_string();
  if (k.has("dims")) {
    const json_reader dims = k.at("dims");
    if (!dims.raw().is_object()) dims.fail("expected an object of dimensions by name");
    for (const auto& item : dims.raw().items()) row.m_dims.emplace_back(item.key(), dims.at(item.key()).as_integer());
  }
  if (k.has("output_check")) row.m_output_check = output_check_from_json(k.at("output_check"));
  if (k.has("phases_s")) row.m_phases = shape_phases_from_json(k.at("phases_s"));
  if (k.has("error")) {
    row.m_error = k.at("error").as_string();
    return row;
  }
  if (k.has("mode") && k.at("mode").as_string() == "profile") {
    row.m_profiled = true;
    return row;
  }
  if (!k.has("median_ns")) {
    row.m_error = "no median (median_ns is null)";
    return row;
  }
  row.m_stats = timing_stats_from_json(k);
  row.m_mean_ns = optional_positive(k, "mean_ns");
  row.m_min_ns = optional_positive(k, "min_ns");
  row.m_max_ns = optional_positive(k, "max_ns");
  row.m_total_time_s = optional_non_negative(k, "total_time_s");
  if (k.has("stop_reason")) row.m_stop_reason = k.at("stop_reason").as_string();
  if (k.has("samples_ns")) row.m_samples_ns = non_negative_numbers(k.at("samples_ns"));
  if (k.has("samples_ns_stride")) row.m_samples_ns_stride = k.at("samples_ns_stride").as_count();
  row.m_flops = optional_non_negative(k, "flops");
  row.m_bytes = optional_non_negative(k, "bytes");
  row.m_tflops = optional_non_negative(k, "tflops");
  row.m_gbps = optional_non_negative(k, "gbps");
  if (k.has("pct_of_ceiling")) row.m_pct_of_ceiling = fractions_from_json(k.at("pct_of_ceiling"));
  if (k.has("second_clock")) row.m_second_clock = second_clock_from_json(k.at("second_clock"));
  if (k.has("clock")) row.m_clock = clock_window_from_json(k.at("clock"));
  if (k.has("flags")) row.m_flags = strings(k.at("flags"));
  if (k.has("rounds")) row.m_rounds = rounds_from_json(k.at("rounds"));
  return row;
}

bench_header bench_header_from_json(const json_reader& k) {
  if (k.at("kind").as_string() != k_bench_kind) {
    k.at("kind").fail("expected \"" + std::string(k_bench_kind) + "\", got \"" + shorten(k.at("kind").as_string()) +
                      "\"");
  }
  if (k.at("schema_version").as_integer() > k_bench_schema_version) {
    k.at("schema_version").fail("newer than this kopt reads (1): update KernelOpt");
  }
  bench_header h;
  h.m_kernel = k.at("kernel").as_string();
  h.m_kernelopt_version = optional_string(k, "kernelopt_version");
  if (k.has("backend")) h.m_backend = k.at("backend").as_string();
  h.m_device = optional_string(k, "device");
  if (k.has("device_index")) h.m_device_index = k.at("device_index").as_integer();
  if (k.has("mode")) h.m_mode = k.at("mode").as_string();
  h.m_shape_set = optional_string(k, "shape_set").value_or("");
  if (k.has("timing")) {
    const json_reader timing = k.at("timing");
    h.m_timing = timing_settings_from_json(timing);
    engine_timing& e = h.m_engine_timing;
    if (timing.has("cache_flush_bytes")) e.m_cache_flush_bytes = timing.at("cache_flush_bytes").as_non_negative_integer();
    if (timing.has("l2_bytes")) e.m_l2_bytes = timing.at("l2_bytes").as_non_negative_integer();
    if (timing.has("clock")) e.m_clock = timing.at("clock").as_string();
    if (timing.has("clock_resolution_ns")) e.m_clock_resolution_ns = timing.at("clock_resolution_ns").as_non_negative();
    if (timing.has("launch_blocking_timeout_s")) {
      e.m_launch_blocking_timeout_s = timing.at("launch_blocking_timeout_s").as_non_negative();
    }
    if (timing.has("second_clock")) e.m_second_clock = timing.at("second_clock").as_string();
  }
  h.m_ceilings = optional_string(k, "ceilings");
  if (k.has("not_benchmarked")) {
    const json_reader list = k.at("not_benchmarked");
    for (std::size_t i = 0; i < list.size(); ++i) {
      h.m_not_benchmarked.push_back({list.at(i).at("impl").as_string(), list.at(i).at("reason").as_string()});
    }
  }
  if (k.has("overhead")) h.m_overhead = overhead_from_json(k.at("overhead"));
  if (k.has("gpu")) h.m_gpu = gpu_info_from_json(k.at("gpu"));
  if (k.has("claim")) h.m_claim = gpu_claim_from_json(k.at("claim"));
  if (k.has("started_unix_ns")) h.m_started_unix_ns = k.at("started_unix_ns").as_non_negative_integer();
  if (k.has("finished_unix_ns")) h.m_finished_unix_ns = k.at("finished_unix_ns").as_non_negative_integer();
  return h;
}

bench_result bench_result_from_json(const json_reader& root) {
  bench_result result;
  result.m_context = object_or_null(root, "context");
  if (root.has("kopt")) result.m_kopt = bench_header_from_json(root.at("kopt"));
  const json_reader benchmarks = root.at("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const json_reader entry = benchmarks.at(i);
    bench_entry e;
    e.m_run = gbench_run_from_json(entry);
    if (entry.has("kopt")) e.m_kopt = bench_row_from_json(entry.at("kopt"));
    result.m_benchmarks.push_back(std::move(e));
  }
  return result;
}

bench_result read_bench_result(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  return bench_result_from_json(json_reader(doc, path.string()));
}

std::vector<format_table> bench_tables() {
  return {{"Benchmark JSON", k_file_fields},
          {"kernelopt.bench", k_header_fields},
          {"kernelopt.bench: benchmarks[]", k_run_fields},
          {"kernelopt.bench: benchmarks[].kopt", k_row_fields},
          {"kernelopt.bench: benchmarks[].kopt.output_check", k_output_check_fields},
          {"kernelopt.bench: benchmarks[].kopt.rounds", k_rounds_fields},
          {"kernelopt.bench: benchmarks[].kopt.phases_s", k_phases_fields},
          {"kernelopt.bench: timing (the engine's fields, after the settings)", k_engine_timing_fields},
          {"kernelopt.bench: overhead", k_overhead_fields}};
}

}  // namespace kopt
