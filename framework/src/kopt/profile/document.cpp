#include "kopt/profile/document.hpp"

#include <algorithm>
#include <cmath>

#include "core/expr.hpp"
#include "core/format.hpp"
#include "core/shape.hpp"
#include "core/utc.hpp"

namespace kopt::profile {

json kernel_json(const kernel_profile& k) {
  const classification c = classify(k);
  json stalls = json::array();
  for (std::size_t i = 0; i < k.m_stalls.size() && i < 3; ++i) {
    stalls.push_back({{"reason", k.m_stalls[i].m_reason}, {"cycles_per_issue", k.m_stalls[i].m_cycles_per_issue}});
  }
  json limits = json::object();
  for (const auto& [what, blocks] : k.m_occupancy_limits) limits[what] = blocks;
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
          {"bottleneck", c.m_bottleneck},
          {"ncu_rule", c.m_ncu_rule},
          {"why", c.m_why},
          {"findings", findings(k)}};
}

json unavailable_json(const std::string& kernel, const std::string& reason) {
  return {{"schema_version", 1}, {"kind", "kernelopt.profile"}, {"kernel", kernel}, {"status", "unavailable"},
          {"reason", reason}};
}

namespace {

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

json build_document(const document_settings& settings, const std::vector<benchmark_input>& inputs) {
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
  json sources = json::object();
  if (settings.m_ceilings) {
    ceilings.add_ceilings(*settings.m_ceilings, settings.m_ceilings_file);
    sources["ceilings_file"] = settings.m_ceilings_file;
  }
  std::string spec_note;
  if (!settings.m_specs_dir.empty()) {
    if (const auto spec = find_spec(settings.m_specs_dir, device)) {
      ceilings.add_spec_document(read_json_file(*spec), spec->string());
      sources["spec_file"] = spec->string();
    } else {
      spec_note = device.empty() ? "device unknown: no spec file matched"
                                 : "no spec file in " + settings.m_specs_dir.string() + " matches \"" + shorten(device) + "\"";
    }
  }
  if (!spec_note.empty()) sources["spec_note"] = spec_note;

  json benchmarks = json::array();
  std::map<std::string, std::vector<std::string>> bottlenecks;  // impl -> per shape
  std::map<std::string, json> gaps;                            // impl -> [{shape, gap}]
  std::vector<std::string> impl_order;
  std::size_t profiled = 0;
  std::string first_error;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const benchmark_input& in = inputs[i];
    if (std::find(impl_order.begin(), impl_order.end(), in.m_impl) == impl_order.end()) impl_order.push_back(in.m_impl);
    json entry = {{"name", in.m_name}, {"impl", in.m_impl}, {"shape", in.m_shape.text()},
                  {"report", in.m_report.empty() ? json(nullptr) : json(in.m_report)}};
    if (!errors[i].empty()) {
      entry["status"] = "failed";
      entry["error"] = errors[i];
      if (first_error.empty()) first_error = in.m_name + ": " + errors[i];
      benchmarks.push_back(entry);
      continue;
    }
    ++profiled;
    const benchmark_summary summary = summarize(kernels[i]);
    json kernel_list = json::array();
    for (const kernel_profile& k : kernels[i]) kernel_list.push_back(kernel_json(k));
    entry["status"] = "ok";
    entry["error"] = nullptr;
    entry["kernels"] = kernel_list;
    entry["duration_ns"] = number_or_null(summary.m_duration_ns);
    entry["dram_bytes"] = number_or_null(summary.m_dram_bytes);
    entry["bottleneck"] = summary.m_class.m_bottleneck;
    entry["ncu_rule"] = summary.m_class.m_ncu_rule;
    entry["why"] = summary.m_class.m_why;
    entry["dominant_kernel"] = summary.m_dominant_kernel;
    std::vector<std::string> notes = summary.m_findings;

    std::string why_flops;
    std::string why_bytes;
    const std::optional<double> flops = work(settings.m_flops, in.m_shape, why_flops);
    const std::optional<double> bytes = work(settings.m_bytes, in.m_shape, why_bytes);
    entry["flops"] = number_or_null(flops);
    entry["bytes"] = number_or_null(bytes);
    if (bytes && summary.m_dram_bytes && *bytes > 0) {
      const double ratio = *summary.m_dram_bytes / *bytes;
      entry["dram_bytes_over_model"] = ratio;
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
      json r = to_json(p);
      r["compute_ceiling"]["why"] = choice.m_why;
      entry["roofline"] = r;
      gaps[in.m_impl].push_back({{"shape", in.m_shape.text()}, {"gap", p.m_gap}, {"bound", p.m_bound}});
    } else {
      entry["roofline"] = nullptr;
      entry["roofline_unavailable"] = roofline_missing;
    }
    entry["findings"] = notes;
    bottlenecks[in.m_impl].push_back(summary.m_class.m_bottleneck);
    benchmarks.push_back(entry);
  }

  json impls = json::object();
  for (const std::string& impl : impl_order) {
    impls[impl] = {{"bottleneck", bottlenecks.count(impl) ? overall_bottleneck(bottlenecks[impl]) : "not profiled"},
                   {"roofline", gaps.count(impl) ? gaps[impl] : json::array()}};
  }
  std::string status = "ok";
  if (profiled == 0) status = "unavailable";
  else if (profiled < inputs.size()) status = "partial";
  json doc = {{"schema_version", 1},
              {"kind", "kernelopt.profile"},
              {"kernel", settings.m_kernel},
              {"status", status},
              {"reason", status == "ok" ? json(nullptr) : json(first_error.empty() ? "nothing to profile" : first_error)},
              {"created_utc", utc_now_iso()},
              {"device", device.empty() ? json("unknown") : json(device)},
              {"tool", settings.m_tool},
              {"command", settings.m_command},
              {"thresholds", thresholds_json()},
              {"ceilings", sources},
              {"benchmarks", benchmarks},
              {"impls", impls}};
  if (impl_order.size() == 1) {
    doc["impl"] = impl_order.front();
    doc["bottleneck"] = impls[impl_order.front()]["bottleneck"];
    doc["roofline"] = impls[impl_order.front()]["roofline"];
  }
  return doc;
}

json impl_document(const json& doc, const std::string& impl, const std::string& file) {
  const json_reader root(doc, file);
  if (!doc.is_object()) root.fail("expected an object");
  json out = doc;
  json benchmarks = json::array();
  std::size_t ok = 0;
  std::size_t total = 0;
  std::string first_error;
  if (root.has("benchmarks")) {
    const json_reader list = root.at("benchmarks");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const json_reader b = list.at(i);
      if (!b.raw().is_object()) b.fail("expected an object");
      if ((b.has("impl") ? b.at("impl").as_string() : "") != impl) continue;
      ++total;
      if ((b.has("status") ? b.at("status").as_string() : "") == "ok") {
        ++ok;
      } else if (first_error.empty()) {
        first_error = (b.has("name") ? b.at("name").as_string() : "") + ": " +
                      (b.has("error") ? b.at("error").as_string() : "failed");
      }
      benchmarks.push_back(b.raw());
    }
  }
  out["benchmarks"] = benchmarks;
  out["status"] = ok == 0 ? "unavailable" : (ok < total ? "partial" : "ok");
  out["reason"] = ok == total && total > 0 ? json(nullptr) : json(first_error.empty() ? "not profiled" : first_error);
  out["impls"] = json::object();
  out["impl"] = impl;
  out["bottleneck"] = "not profiled";
  out["roofline"] = json::array();
  if (root.has("impls")) {
    const json_reader impls = root.at("impls");
    if (!impls.raw().is_object()) impls.fail("expected an object of implementations");
    if (impls.has(impl)) {
      const json_reader entry = impls.at(impl);
      out["impls"][impl] = entry.raw();
      out["bottleneck"] = entry.at("bottleneck").raw();
      out["roofline"] = entry.at("roofline").raw();
    }
  }
  return out;
}

}  // namespace kopt::profile
