#include "kopt/profile/document.hpp"

#include <algorithm>
#include <cmath>

#include "core/expr.hpp"
#include "core/format.hpp"
#include "core/shape.hpp"
#include "core/utc.hpp"

namespace kopt::profile {

namespace {

const char* const k_profile_kind = "kernelopt.profile";

const std::vector<field_doc> k_profile_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.profile`"},
    {"kernel", "string", "the kernel"},
    {"status", "string", "`ok` (every benchmark profiled), `partial` or `unavailable` (none)"},
    {"reason", "string | null", "why not ok: the first failure, or why nothing was profiled"},
    {"created_utc", "string", "when (absent, as everything below, when nothing was run)"},
    {"device", "string", "the device name from ncu, or `unknown`"},
    {"tool", "object", "the profiler (the `tool` table)"},
    {"command", "array", "one benchmark's ncu command"},
    {"thresholds", "object", "the bottleneck rules' thresholds and their source (the `thresholds` table)"},
    {"ceilings", "object", "which files gave the roofs (the `ceilings` table)"},
    {"benchmarks", "array", "one per implementation x shape"},
    {"impls", "object", "per implementation, by name"},
    {"impl", "string", "only with a single implementation: its name"},
    {"bottleneck", "string", "only with a single implementation: its bottleneck (the report's column)"},
    {"roofline", "array", "only with a single implementation: its roofline gaps (the gate and report read them)"},
};

const std::vector<field_doc> k_tool_fields = {
    {"ncu", "string", "the ncu that ran (its path), or `imported` (`kopt profile-import`)"},
    {"version", "string", "its `--version`, or `unknown`"},
};

const std::vector<field_doc> k_threshold_fields = {
    {"source", "string", "where the thresholds come from (absent in older documents)"},
    {"<name>", "number", "each threshold by name: `latency_below_pct`, `high_throughput_at_pct`, "
                         "`balanced_within_pct`, `small_grid_waves_below` (older documents: others)"},
};

const std::vector<field_doc> k_roof_source_fields = {
    {"ceilings_file", "string", "the --ceilings file (absent without one)"},
    {"spec_file", "string", "the device's spec file (absent when none matched)"},
    {"spec_note", "string", "why no spec file matched (absent when one did)"},
};

const std::vector<field_doc> k_benchmark_fields = {
    {"name", "string", "`<kernel>/<impl>/<shape>`"},
    {"impl", "string", "the implementation"},
    {"shape", "string", "the shape as declared"},
    {"report", "string | null", "the Nsight Compute report (.ncu-rep)"},
    {"status", "string", "`ok` or `failed`"},
    {"error", "string | null", "why it failed"},
    {"kernels", "array", "ok: each profiled kernel's metrics, launch, bottleneck and findings (the `kernels[]` table)"},
    {"duration_ns", "number | null", "ok: the kernels' summed duration"},
    {"dram_bytes", "number | null", "ok: the kernels' summed DRAM traffic"},
    {"bottleneck", "string", "ok: the classification (docs/profiling.md)"},
    {"ncu_rule", "string", "ok: the Nsight Compute rule it corresponds to"},
    {"why", "string", "ok: the numbers behind it"},
    {"dominant_kernel", "string", "ok: the longest kernel"},
    {"flops", "number | null", "ok: FLOPS at the shape; null when not declared or not computable"},
    {"bytes", "number | null", "ok: BYTES at the shape, likewise"},
    {"dram_bytes_over_model", "number", "ok, when both are known: measured DRAM bytes / BYTES"},
    {"roofline", "object | null", "ok: the roofline point (docs/profiling.md); null without both roofs"},
    {"roofline_unavailable", "string", "ok, when `roofline` is null: why"},
    {"findings", "array", "ok: what the numbers suggest, one line each"},
};

const std::vector<field_doc> k_kernel_fields = {
    {"id", "string", "ncu's ID of the launch"},
    {"name", "string", "the kernel's name as ncu prints it"},
    {"duration_ns", "number | null", "`gpu__time_duration.sum`"},
    {"dram_bytes", "number | null", "`dram__bytes.sum`"},
    {"sol_compute_pct", "number | null", "SM throughput, % of peak (SpeedOfLight)"},
    {"sol_memory_pct", "number | null", "memory throughput, % of peak (SpeedOfLight)"},
    {"achieved_occupancy_pct", "number | null", "achieved occupancy, %"},
    {"theoretical_occupancy_pct", "number | null", "theoretical occupancy, %"},
    {"tensor_pipe_pct", "number | null", "tensor pipe active, % of peak"},
    {"top_stalls", "array", "the three largest warp stalls: `reason`, `cycles_per_issue`"},
    {"launch", "object", "the launch (the `launch` table)"},
    {"bottleneck", "string", "the classification (docs/profiling.md)"},
    {"ncu_rule", "string", "the Nsight Compute rule it corresponds to"},
    {"why", "string", "the numbers behind it"},
    {"findings", "array", "what the numbers suggest, one line each"},
};

const std::vector<field_doc> k_launch_fields = {
    {"grid", "string", "ncu's Grid Size column: `(128, 1, 1)`"},
    {"block", "string", "ncu's Block Size column"},
    {"grid_size", "number | null", "blocks"},
    {"block_size", "number | null", "threads per block"},
    {"registers_per_thread", "number | null", "registers per thread"},
    {"static_smem_bytes", "number | null", "static shared memory per block"},
    {"dynamic_smem_bytes", "number | null", "dynamic shared memory per block"},
    {"waves_per_sm", "number | null", "waves per SM"},
    {"sm_count", "number | null", "the device's SMs"},
    {"occupancy_limit_blocks", "object", "blocks per SM each limiter allows (`registers`, `shared_mem`, ...)"},
};

const std::vector<field_doc> k_impl_fields = {
    {"bottleneck", "string", "the bottleneck over its shapes, or `not profiled`"},
    {"roofline", "array", "its roofline gap at each shape that has one"},
};

const std::vector<field_doc> k_gap_fields = {
    {"shape", "string", "the shape"},
    {"gap", "number", "1 - achieved / attainable"},
    {"bound", "string", "`memory` or `compute`: the lower roof there"},
};

json or_null(const std::optional<std::string>& value) { return value ? json(*value) : json(nullptr); }

std::optional<std::string> optional_string(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_string();
}

std::optional<double> optional_number(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_number();
}

std::vector<std::string> strings(const json_reader& node) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < node.size(); ++i) out.push_back(node.at(i).as_string());
  return out;
}

}  // namespace

profiled_kernel profiled_kernel_of(const kernel_profile& k) {
  const classification c = classify(k);
  profiled_kernel p;
  p.m_id = k.m_id;
  p.m_name = k.m_name;
  p.m_duration_ns = k.m_duration_ns;
  p.m_dram_bytes = k.m_dram_bytes;
  p.m_sol_compute_pct = k.m_sol_compute_pct;
  p.m_sol_memory_pct = k.m_sol_memory_pct;
  p.m_achieved_occupancy_pct = k.m_achieved_occupancy_pct;
  p.m_theoretical_occupancy_pct = k.m_theoretical_occupancy_pct;
  p.m_tensor_pipe_pct = k.m_tensor_pipe_pct;
  for (std::size_t i = 0; i < k.m_stalls.size() && i < 3; ++i) p.m_top_stalls.push_back(k.m_stalls[i]);
  p.m_grid = k.m_grid;
  p.m_block = k.m_block;
  p.m_grid_size = k.m_grid_size;
  p.m_block_size = k.m_block_size;
  p.m_registers_per_thread = k.m_registers_per_thread;
  p.m_static_smem_bytes = k.m_static_smem_bytes;
  p.m_dynamic_smem_bytes = k.m_dynamic_smem_bytes;
  p.m_waves_per_sm = k.m_waves_per_sm;
  p.m_sm_count = k.m_sm_count;
  for (const auto& [what, blocks] : k.m_occupancy_limits) p.m_occupancy_limit_blocks.emplace_back(what, blocks);
  p.m_bottleneck = c.m_bottleneck;
  p.m_ncu_rule = c.m_ncu_rule;
  p.m_why = c.m_why;
  p.m_findings = findings(k);
  return p;
}

json to_json(const profiled_kernel& k) {
  json stalls = json::array();
  for (const stall& s : k.m_top_stalls) stalls.push_back({{"reason", s.m_reason}, {"cycles_per_issue", s.m_cycles_per_issue}});
  json limits = json::object();
  for (const auto& [what, blocks] : k.m_occupancy_limit_blocks) limits[what] = blocks;
  return {{"id", k.m_id},
          {"name", k.m_name},
          {"duration_ns", number_or_null(k.m_duration_ns)},
          {"dram_bytes", number_or_null(k.m_dram_bytes)},
          {"sol_compute_pct", number_or_null(k.m_sol_compute_pct)},
          {"sol_memory_pct", number_or_null(k.m_sol_memory_pct)},
          {"achieved_occupancy_pct", number_or_null(k.m_achieved_occupancy_pct)},
          {"theoretical_occupancy_pct", number_or_null(k.m_theoretical_occupancy_pct)},
          {"tensor_pipe_pct", number_or_null(k.m_tensor_pipe_pct)},
          {"top_stalls", stalls},
          {"launch",
           {{"grid", k.m_grid},
            {"block", k.m_block},
            {"grid_size", number_or_null(k.m_grid_size)},
            {"block_size", number_or_null(k.m_block_size)},
            {"registers_per_thread", number_or_null(k.m_registers_per_thread)},
            {"static_smem_bytes", number_or_null(k.m_static_smem_bytes)},
            {"dynamic_smem_bytes", number_or_null(k.m_dynamic_smem_bytes)},
            {"waves_per_sm", number_or_null(k.m_waves_per_sm)},
            {"sm_count", number_or_null(k.m_sm_count)},
            {"occupancy_limit_blocks", limits}}},
          {"bottleneck", k.m_bottleneck},
          {"ncu_rule", k.m_ncu_rule},
          {"why", k.m_why},
          {"findings", k.m_findings}};
}

profiled_kernel profiled_kernel_from_json(const json_reader& node) {
  profiled_kernel k;
  k.m_id = node.at("id").as_string();
  k.m_name = node.at("name").as_string();
  k.m_duration_ns = optional_number(node, "duration_ns");
  k.m_dram_bytes = optional_number(node, "dram_bytes");
  k.m_sol_compute_pct = optional_number(node, "sol_compute_pct");
  k.m_sol_memory_pct = optional_number(node, "sol_memory_pct");
  k.m_achieved_occupancy_pct = optional_number(node, "achieved_occupancy_pct");
  k.m_theoretical_occupancy_pct = optional_number(node, "theoretical_occupancy_pct");
  k.m_tensor_pipe_pct = optional_number(node, "tensor_pipe_pct");
  const json_reader stalls = node.at("top_stalls");
  for (std::size_t i = 0; i < stalls.size(); ++i) {
    k.m_top_stalls.push_back({stalls.at(i).at("reason").as_string(), stalls.at(i).at("cycles_per_issue").as_number()});
  }
  const json_reader launch = node.at("launch");
  k.m_grid = launch.at("grid").as_string();
  k.m_block = launch.at("block").as_string();
  k.m_grid_size = optional_number(launch, "grid_size");
  k.m_block_size = optional_number(launch, "block_size");
  k.m_registers_per_thread = optional_number(launch, "registers_per_thread");
  k.m_static_smem_bytes = optional_number(launch, "static_smem_bytes");
  k.m_dynamic_smem_bytes = optional_number(launch, "dynamic_smem_bytes");
  k.m_waves_per_sm = optional_number(launch, "waves_per_sm");
  k.m_sm_count = optional_number(launch, "sm_count");
  const json_reader limits = launch.at("occupancy_limit_blocks");
  if (!limits.raw().is_object()) limits.fail("expected an object of block counts by limiter");
  for (const auto& item : limits.raw().items()) {
    k.m_occupancy_limit_blocks.emplace_back(item.key(), limits.at(item.key()).as_number());
  }
  k.m_bottleneck = node.at("bottleneck").as_string();
  k.m_ncu_rule = node.at("ncu_rule").as_string();
  k.m_why = node.at("why").as_string();
  k.m_findings = strings(node.at("findings"));
  return k;
}

namespace {

json to_json(const profile_tool& t) { return {{"ncu", t.m_ncu}, {"version", t.m_version}}; }

profile_tool tool_from_json(const json_reader& node) {
  return {node.at("ncu").as_string(), node.at("version").as_string()};
}

json to_json(const roof_sources& s) {
  json j = json::object();
  if (s.m_ceilings_file) j["ceilings_file"] = *s.m_ceilings_file;
  if (s.m_spec_file) j["spec_file"] = *s.m_spec_file;
  if (s.m_spec_note) j["spec_note"] = *s.m_spec_note;
  return j;
}

roof_sources roof_sources_from_json(const json_reader& node) {
  if (!node.raw().is_object()) node.fail("expected an object");
  return {optional_string(node, "ceilings_file"), optional_string(node, "spec_file"),
          optional_string(node, "spec_note")};
}

json to_json(const impl_profile& impl) {
  json gaps = json::array();
  for (const roofline_gap& g : impl.m_roofline) gaps.push_back({{"shape", g.m_shape}, {"gap", g.m_gap}, {"bound", g.m_bound}});
  return {{"bottleneck", impl.m_bottleneck}, {"roofline", gaps}};
}

impl_profile impl_from_json(const json_reader& node) {
  impl_profile impl;
  impl.m_bottleneck = node.at("bottleneck").as_string();
  const json_reader gaps = node.at("roofline");
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    const json_reader g = gaps.at(i);
    impl.m_roofline.push_back({g.at("shape").as_string(), g.at("gap").as_number(), g.at("bound").as_string()});
  }
  return impl;
}

json to_json(const profiled_benchmark& b) {
  json entry = {{"name", b.m_name}, {"impl", b.m_impl}, {"shape", b.m_shape}, {"report", or_null(b.m_report)},
                {"status", b.m_status}, {"error", or_null(b.m_error)}};
  if (b.m_status != "ok") return entry;
  json kernels = json::array();
  for (const profiled_kernel& k : b.m_kernels) kernels.push_back(to_json(k));
  entry["kernels"] = kernels;
  entry["duration_ns"] = number_or_null(b.m_duration_ns);
  entry["dram_bytes"] = number_or_null(b.m_dram_bytes);
  entry["bottleneck"] = b.m_bottleneck;
  entry["ncu_rule"] = b.m_ncu_rule;
  entry["why"] = b.m_why;
  entry["dominant_kernel"] = b.m_dominant_kernel;
  entry["flops"] = number_or_null(b.m_flops);
  entry["bytes"] = number_or_null(b.m_bytes);
  if (b.m_dram_bytes_over_model) entry["dram_bytes_over_model"] = *b.m_dram_bytes_over_model;
  if (b.m_roofline) {
    json point = to_json(*b.m_roofline);
    if (b.m_compute_why) point["compute_ceiling"]["why"] = *b.m_compute_why;
    entry["roofline"] = std::move(point);
  } else {
    entry["roofline"] = nullptr;
  }
  if (b.m_roofline_unavailable) entry["roofline_unavailable"] = *b.m_roofline_unavailable;
  entry["findings"] = b.m_findings;
  return entry;
}

profiled_benchmark benchmark_from_json(const json_reader& node) {
  profiled_benchmark b;
  b.m_name = node.at("name").as_string();
  b.m_impl = node.at("impl").as_string();
  b.m_shape = node.at("shape").as_string();
  b.m_report = optional_string(node, "report");
  b.m_status = node.at("status").as_string();
  if (b.m_status != "ok" && b.m_status != "failed") {
    node.at("status").fail("expected \"ok\" or \"failed\", got \"" + shorten(b.m_status) + "\"");
  }
  b.m_error = optional_string(node, "error");
  if (b.m_status != "ok") return b;
  const json_reader kernels = node.at("kernels");
  for (std::size_t i = 0; i < kernels.size(); ++i) b.m_kernels.push_back(profiled_kernel_from_json(kernels.at(i)));
  b.m_duration_ns = optional_number(node, "duration_ns");
  b.m_dram_bytes = optional_number(node, "dram_bytes");
  b.m_bottleneck = node.at("bottleneck").as_string();
  b.m_ncu_rule = node.at("ncu_rule").as_string();
  b.m_why = node.at("why").as_string();
  b.m_dominant_kernel = node.at("dominant_kernel").as_string();
  b.m_flops = optional_number(node, "flops");
  b.m_bytes = optional_number(node, "bytes");
  b.m_dram_bytes_over_model = optional_number(node, "dram_bytes_over_model");
  if (node.has("roofline")) {
    const json_reader point = node.at("roofline");
    b.m_roofline = roofline_point_from_json(point);
    b.m_compute_why = optional_string(point.at("compute_ceiling"), "why");
  }
  b.m_roofline_unavailable = optional_string(node, "roofline_unavailable");
  b.m_findings = strings(node.at("findings"));
  return b;
}

std::optional<double> work(const std::string& expression, const shape& at, std::string& why) {
  if (expression.empty()) {
    why = "the kernel declares no FLOPS/BYTES";
    return std::nullopt;
  }
  try {
    return evaluate(expression, at.values());
  } catch (const std::exception& e) {
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace

profile_document build_document(const document_settings& settings, const std::vector<benchmark_input>& inputs) {
  // Parse every CSV first: the device name they carry picks the spec file.
  std::vector<std::vector<kernel_profile>> kernels(inputs.size());
  std::vector<std::string> errors(inputs.size());
  std::string device = settings.m_device;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const benchmark_input& in = inputs[i];
    if (!in.m_csv) {
      errors[i] = in.m_error.empty() ? "not profiled" : in.m_error;
      continue;
    }
    try {
      kernels[i] = kernels_from_table(parse_csv(*in.m_csv, in.m_csv_file.empty() ? in.m_name : in.m_csv_file));
      if (kernels[i].empty()) errors[i] = "ncu profiled no kernel in this launch";
    } catch (const std::exception& e) {
      errors[i] = e.what();
    }
    for (const kernel_profile& k : kernels[i]) {
      if (device.empty() && !k.m_device.empty()) device = k.m_device;
    }
  }

  ceiling_set ceilings;
  roof_sources sources;
  if (settings.m_ceilings) {
    ceilings.add_ceilings(*settings.m_ceilings, settings.m_ceilings_file);
    sources.m_ceilings_file = settings.m_ceilings_file;
  }
  std::string spec_note;
  if (!settings.m_specs_dir.empty()) {
    if (const auto spec = find_spec(settings.m_specs_dir, device)) {
      ceilings.add_spec(*spec);
      sources.m_spec_file = spec->m_path.string();
    } else {
      spec_note = device.empty() ? "device unknown: no spec file matched"
                                 : "no spec file in " + settings.m_specs_dir.string() + " matches \"" + shorten(device) + "\"";
    }
  }
  if (!spec_note.empty()) sources.m_spec_note = spec_note;

  profile_run run;
  std::map<std::string, std::vector<std::string>> bottlenecks;  // impl -> per shape
  std::map<std::string, std::vector<roofline_gap>> gaps;       // impl -> per shape with a roofline
  std::vector<std::string> impl_order;
  std::size_t profiled = 0;
  std::string first_error;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const benchmark_input& in = inputs[i];
    if (std::find(impl_order.begin(), impl_order.end(), in.m_impl) == impl_order.end()) impl_order.push_back(in.m_impl);
    profiled_benchmark entry;
    entry.m_name = in.m_name;
    entry.m_impl = in.m_impl;
    entry.m_shape = in.m_shape.text();
    if (!in.m_report.empty()) entry.m_report = in.m_report;
    if (!errors[i].empty()) {
      entry.m_status = "failed";
      entry.m_error = errors[i];
      if (first_error.empty()) first_error = in.m_name + ": " + errors[i];
      run.m_benchmarks.push_back(std::move(entry));
      continue;
    }
    ++profiled;
    const benchmark_summary summary = summarize(kernels[i]);
    for (const kernel_profile& k : kernels[i]) entry.m_kernels.push_back(profiled_kernel_of(k));
    entry.m_status = "ok";
    entry.m_duration_ns = summary.m_duration_ns;
    entry.m_dram_bytes = summary.m_dram_bytes;
    entry.m_bottleneck = summary.m_class.m_bottleneck;
    entry.m_ncu_rule = summary.m_class.m_ncu_rule;
    entry.m_why = summary.m_class.m_why;
    entry.m_dominant_kernel = summary.m_dominant_kernel;
    std::vector<std::string> notes = summary.m_findings;

    std::string why_flops;
    std::string why_bytes;
    const std::optional<double> flops = work(settings.m_flops, in.m_shape, why_flops);
    const std::optional<double> bytes = work(settings.m_bytes, in.m_shape, why_bytes);
    entry.m_flops = flops;
    entry.m_bytes = bytes;
    if (bytes && summary.m_dram_bytes && *bytes > 0) {
      const double ratio = *summary.m_dram_bytes / *bytes;
      entry.m_dram_bytes_over_model = ratio;
      if (ratio > 1.2) {
        notes.push_back("DRAM traffic is " + format_number(ratio, 3) + "x the work model's BYTES: data is read or written more than once");
      }
    }
    const compute_choice choice = choose_compute_ceiling(settings.m_compute_ceiling, settings.m_input_dtypes, kernels[i]);
    const std::optional<ceiling_value> compute = ceilings.find(choice.m_name);
    const std::optional<ceiling_value> bandwidth = ceilings.bandwidth();
    std::string roofline_missing;
    if (!bytes) roofline_missing = "BYTES unknown: " + why_bytes;
    else if (!flops) roofline_missing = "FLOPS unknown: " + why_flops;
    else if (!summary.m_duration_ns) roofline_missing = "kernel duration not measured";
    else if (!bandwidth) roofline_missing = "no bandwidth ceiling (no copy_bandwidth in a ceilings file, no dram_bandwidth in a spec file)";
    else if (!compute) roofline_missing = "no \"" + choice.m_name + "\" ceiling (" + choice.m_why + ") in the ceilings or spec file";
    if (roofline_missing.empty()) {
      const roofline_point p = roofline(*flops, *bytes, summary.m_dram_bytes, *summary.m_duration_ns, *compute, *bandwidth);
      entry.m_roofline = p;
      entry.m_compute_why = choice.m_why;
      gaps[in.m_impl].push_back({in.m_shape.text(), p.m_gap, p.m_bound});
    } else {
      entry.m_roofline = std::nullopt;
      entry.m_roofline_unavailable = roofline_missing;
    }
    entry.m_findings = notes;
    bottlenecks[in.m_impl].push_back(summary.m_class.m_bottleneck);
    run.m_benchmarks.push_back(std::move(entry));
  }

  for (const std::string& impl : impl_order) {
    impl_profile overall;
    if (bottlenecks.count(impl) != 0) overall.m_bottleneck = overall_bottleneck(bottlenecks[impl]);
    if (gaps.count(impl) != 0) overall.m_roofline = gaps[impl];
    run.m_impls.emplace_back(impl, std::move(overall));
  }
  profile_document doc;
  doc.m_kernel = settings.m_kernel;
  doc.m_status = "ok";
  if (profiled == 0) doc.m_status = "unavailable";
  else if (profiled < inputs.size()) doc.m_status = "partial";
  if (doc.m_status != "ok") doc.m_reason = first_error.empty() ? "nothing to profile" : first_error;
  run.m_created_utc = utc_now_iso();
  if (!device.empty()) run.m_device = device;
  run.m_tool = settings.m_tool;
  run.m_command = settings.m_command;
  run.m_thresholds = thresholds_in_use();
  run.m_ceilings = sources;
  if (impl_order.size() == 1) run.m_impl = impl_order.front();
  doc.m_run = std::move(run);
  return doc;
}

profile_document impl_document(const profile_document& doc, const std::string& impl) {
  if (!doc.m_run) return doc;
  profile_document out = doc;
  profile_run& run = *out.m_run;
  run.m_benchmarks.clear();
  std::size_t ok = 0;
  std::string first_error;
  for (const profiled_benchmark& b : doc.m_run->m_benchmarks) {
    if (b.m_impl != impl) continue;
    if (b.m_status == "ok") {
      ++ok;
    } else if (first_error.empty()) {
      first_error = b.m_name + ": " + b.m_error.value_or("failed");
    }
    run.m_benchmarks.push_back(b);
  }
  const std::size_t total = run.m_benchmarks.size();
  out.m_status = ok == 0 ? "unavailable" : (ok < total ? "partial" : "ok");
  out.m_reason = std::nullopt;
  if (!(ok == total && total > 0)) out.m_reason = first_error.empty() ? "not profiled" : first_error;
  run.m_impls.clear();
  if (const impl_profile* own = doc.m_run->find_impl(impl)) run.m_impls.emplace_back(impl, *own);
  run.m_impl = impl;
  return out;
}

const impl_profile* profile_run::find_impl(const std::string& impl) const {
  for (const auto& [name, profile] : m_impls) {
    if (name == impl) return &profile;
  }
  return nullptr;
}

profile_document read_profile_document(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  return profile_document_from_json(json_reader(doc, path.string()));
}

const impl_profile* single_impl(const profile_document& doc) {
  if (!doc.m_run || !doc.m_run->m_impl) return nullptr;
  return doc.m_run->find_impl(*doc.m_run->m_impl);
}

profile_document unavailable_document(const std::string& kernel, const std::string& reason) {
  profile_document doc;
  doc.m_kernel = kernel;
  doc.m_status = "unavailable";
  doc.m_reason = reason;
  return doc;
}

json to_json(const profile_document& doc) {
  json out = {{"schema_version", k_profile_schema_version},
              {"kind", k_profile_kind},
              {"kernel", doc.m_kernel},
              {"status", doc.m_status},
              {"reason", or_null(doc.m_reason)}};
  if (!doc.m_run) return out;
  const profile_run& run = *doc.m_run;
  json benchmarks = json::array();
  for (const profiled_benchmark& b : run.m_benchmarks) benchmarks.push_back(to_json(b));
  json impls = json::object();
  for (const auto& [name, impl] : run.m_impls) impls[name] = to_json(impl);
  out["created_utc"] = run.m_created_utc;
  out["device"] = run.m_device;
  out["tool"] = to_json(run.m_tool);
  out["command"] = run.m_command;
  out["thresholds"] = to_json(run.m_thresholds);
  out["ceilings"] = to_json(run.m_ceilings);
  out["benchmarks"] = benchmarks;
  out["impls"] = impls;
  if (run.m_impl) {
    const impl_profile* own = run.find_impl(*run.m_impl);
    const json overall = to_json(own != nullptr ? *own : impl_profile{});
    out["impl"] = *run.m_impl;
    out["bottleneck"] = overall["bottleneck"];
    out["roofline"] = overall["roofline"];
  }
  return out;
}

profile_document profile_document_from_json(const json_reader& root) {
  (void)check_kind(root, k_profile_kind, k_profile_schema_version);
  profile_document doc;
  doc.m_kernel = root.at("kernel").as_string();
  doc.m_status = root.at("status").as_string();
  if (doc.m_status != "ok" && doc.m_status != "partial" && doc.m_status != "unavailable") {
    root.at("status").fail("expected \"ok\", \"partial\" or \"unavailable\", got \"" + shorten(doc.m_status) + "\"");
  }
  doc.m_reason = optional_string(root, "reason");
  // The short document says why nothing was profiled; any other status
  // comes with the run (else its bottleneck and roofline would be dropped).
  if (doc.m_status == "unavailable" && !root.has("created_utc")) return doc;
  profile_run run;
  run.m_created_utc = root.at("created_utc").as_string();
  run.m_device = root.at("device").as_string();
  run.m_tool = tool_from_json(root.at("tool"));
  run.m_command = strings(root.at("command"));
  run.m_thresholds = thresholds_from_json(root.at("thresholds"));
  run.m_ceilings = roof_sources_from_json(root.at("ceilings"));
  const json_reader benchmarks = root.at("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) run.m_benchmarks.push_back(benchmark_from_json(benchmarks.at(i)));
  const json_reader impls = root.at("impls");
  if (!impls.raw().is_object()) impls.fail("expected an object of implementations");
  for (const auto& item : impls.raw().items()) run.m_impls.emplace_back(item.key(), impl_from_json(impls.at(item.key())));
  run.m_impl = optional_string(root, "impl");
  doc.m_run = std::move(run);
  return doc;
}

std::vector<format_table> profile_tables() {
  std::vector<format_table> tables = {{"kernelopt.profile", k_profile_fields},
                                      {"kernelopt.profile: tool", k_tool_fields},
                                      {"kernelopt.profile: thresholds", k_threshold_fields},
                                      {"kernelopt.profile: ceilings", k_roof_source_fields},
                                      {"kernelopt.profile: benchmarks[]", k_benchmark_fields},
                                      {"kernelopt.profile: benchmarks[].kernels[]", k_kernel_fields},
                                      {"kernelopt.profile: benchmarks[].kernels[].launch", k_launch_fields},
                                      {"kernelopt.profile: impls.<name>", k_impl_fields},
                                      {"kernelopt.profile: roofline[], impls.<name>.roofline[]", k_gap_fields}};
  for (format_table& t : roofline_tables()) tables.push_back(std::move(t));
  return tables;
}

}  // namespace kopt::profile
