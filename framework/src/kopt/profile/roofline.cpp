#include "kopt/profile/roofline.hpp"

#include <algorithm>
#include <cmath>
#include <regex>

#include "formats/ceilings.hpp"

namespace kopt::profile {

void ceiling_set::add_ceilings(const ceilings_file& ceilings, const std::string& file) {
  for (const ceiling& c : ceilings.m_ceilings) {  // values checked where read: finite, > 0
    if (!c.m_value) continue;
    m_values[c.m_name] = {c.m_name, *c.m_value, c.m_unit,
                          (c.m_source == "measured" ? "measured, " : c.m_source + ", ") + file};
  }
}

void ceiling_set::add_spec(const spec_file& spec) {
  for (const ceiling& c : spec.rates()) {
    if (m_values.count(c.m_name) != 0) continue;  // measured wins
    m_values[c.m_name] = {c.m_name, *c.m_value, c.m_unit,
                          "spec " + spec.m_device + ": " + c.m_source + " (" + spec.m_path.string() + ")"};
  }
}

std::optional<ceiling_value> ceiling_set::find(const std::string& name) const {
  const auto it = m_values.find(name);
  if (it == m_values.end()) return std::nullopt;
  return it->second;
}

std::optional<ceiling_value> ceiling_set::bandwidth() const {
  if (auto c = find("copy_bandwidth")) return c;
  return find("dram_bandwidth");
}

compute_choice choose_compute_ceiling(const std::string& forced, const std::vector<std::string>& input_dtypes,
                                      const std::vector<kernel_profile>& kernels) {
  if (!forced.empty()) return {forced, "given with --compute-ceiling"};
  const auto has = [&](const std::string& t) {
    return std::find(input_dtypes.begin(), input_dtypes.end(), t) != input_dtypes.end();
  };
  // The tensor pipe decides whether a tensor-core rate bounds the kernel. On
  // an H200 (2026-11-21) softmax kernels, which issue no matrix instruction,
  // read 0.2 - 4.8 % on the HMMA pipe metric and cuBLAS's bf16 GEMM 91 %:
  // below 10 % counts as idle. When the metric is missing the input type
  // decides.
  bool measured = false;
  bool tensor = false;
  for (const kernel_profile& k : kernels) {
    if (!k.m_tensor_pipe_pct) continue;
    measured = true;
    tensor = tensor || *k.m_tensor_pipe_pct >= 10.0;
  }
  if (has("f64")) return {"fp64", "f64 inputs"};
  if (tensor || !measured) {
    const std::string why = tensor ? "the tensor pipe was active" : "tensor-pipe use not measured";
    if (has("bf16")) return {"bf16_tensor", "bf16 inputs and " + why};
    if (has("f16")) return {"fp16_tensor", "f16 inputs and " + why};
    if (tensor) return {"tf32_tensor", "f32 inputs and " + why};
  }
  return {"fp32_fma", "tensor pipe idle (< 10 % active): the FP32 FMA rate"};
}

roofline_point roofline(double flops, double bytes, std::optional<double> dram_bytes, double duration_ns,
                        const ceiling_value& compute, const ceiling_value& bandwidth) {
  roofline_point p;
  p.m_flops = flops;
  p.m_bytes = bytes;
  p.m_intensity = bytes > 0 ? flops / bytes : 0;
  if (dram_bytes && *dram_bytes > 0) p.m_dram_intensity = flops / *dram_bytes;
  p.m_duration_ns = duration_ns;
  p.m_achieved_flops = duration_ns > 0 ? flops / (duration_ns * 1e-9) : 0;
  p.m_achieved_bytes = duration_ns > 0 ? bytes / (duration_ns * 1e-9) : 0;
  p.m_compute = compute;
  p.m_bandwidth = bandwidth;
  const double memory_roof = p.m_intensity * bandwidth.m_value;
  p.m_bound = memory_roof < compute.m_value ? "memory" : "compute";
  p.m_attainable_flops = std::min(compute.m_value, memory_roof);
  // A kernel with no flops in its model is measured on bandwidth alone.
  if (flops <= 0) {
    p.m_bound = "memory";
    p.m_fraction = bandwidth.m_value > 0 ? p.m_achieved_bytes / bandwidth.m_value : 0;
  } else {
    p.m_fraction = p.m_attainable_flops > 0 ? p.m_achieved_flops / p.m_attainable_flops : 0;
  }
  p.m_gap = 1 - p.m_fraction;
  return p;
}

json to_json(const roofline_point& p) {
  const auto ceiling = [](const ceiling_value& c) {
    return json{{"name", c.m_name}, {"value", c.m_value}, {"unit", c.m_unit}, {"source", c.m_source}};
  };
  return {{"flops", p.m_flops},
          {"bytes", p.m_bytes},
          {"arithmetic_intensity", p.m_intensity},
          {"dram_intensity", number_or_null(p.m_dram_intensity)},
          {"duration_ns", p.m_duration_ns},
          {"achieved_flops_per_s", p.m_achieved_flops},
          {"achieved_bytes_per_s", p.m_achieved_bytes},
          {"compute_ceiling", ceiling(p.m_compute)},
          {"bandwidth_ceiling", ceiling(p.m_bandwidth)},
          {"attainable_flops_per_s", p.m_attainable_flops},
          {"bound", p.m_bound},
          {"fraction_of_attainable", p.m_fraction},
          {"gap", p.m_gap}};
}

namespace {

const std::vector<field_doc> k_point_fields = {
    {"flops", "number", "FLOPS of the work model at the shape"},
    {"bytes", "number", "BYTES of the work model"},
    {"arithmetic_intensity", "number", "flops / bytes (FLOP/B)"},
    {"dram_intensity", "number | null", "flops / measured DRAM bytes"},
    {"duration_ns", "number", "the kernels' summed duration (ncu)"},
    {"achieved_flops_per_s", "number", "flops / duration"},
    {"achieved_bytes_per_s", "number", "bytes / duration"},
    {"compute_ceiling", "object", "the compute roof (a ceiling; with `why` it was chosen)"},
    {"bandwidth_ceiling", "object", "the bandwidth roof (a ceiling)"},
    {"attainable_flops_per_s", "number", "min(compute, intensity x bandwidth)"},
    {"bound", "string", "`memory` or `compute`: the lower roof here"},
    {"fraction_of_attainable", "number", "achieved / attainable"},
    {"gap", "number", "1 - fraction_of_attainable"},
};

const std::vector<field_doc> k_ceiling_fields = {
    {"name", "string", "`copy_bandwidth`, `dram_bandwidth`, `fp32_fma`, `bf16_tensor`, ..."},
    {"value", "number", "B/s or FLOP/s"},
    {"unit", "string", "`B/s` or `FLOP/s`"},
    {"source", "string", "`measured (<file>)` or the spec document's citation"},
    {"why", "string", "compute_ceiling only: why this ceiling applies"},
};

ceiling_value ceiling_value_from_json(const json_reader& node) {
  if (!node.raw().is_object()) node.fail("expected an object (name, value, unit, source)");
  return {node.at("name").as_string(), node.at("value").as_non_negative(), node.at("unit").as_string(),
          node.at("source").as_string()};
}

}  // namespace

roofline_point roofline_point_from_json(const json_reader& node) {
  if (!node.raw().is_object()) node.fail("expected an object (flops, bytes, ...) or null");
  roofline_point p;
  p.m_flops = node.at("flops").as_non_negative();
  p.m_bytes = node.at("bytes").as_non_negative();
  p.m_intensity = node.at("arithmetic_intensity").as_non_negative();
  if (node.has("dram_intensity")) p.m_dram_intensity = node.at("dram_intensity").as_non_negative();
  p.m_duration_ns = node.at("duration_ns").as_non_negative();
  p.m_achieved_flops = node.at("achieved_flops_per_s").as_non_negative();
  p.m_achieved_bytes = node.at("achieved_bytes_per_s").as_non_negative();
  p.m_compute = ceiling_value_from_json(node.at("compute_ceiling"));
  p.m_bandwidth = ceiling_value_from_json(node.at("bandwidth_ceiling"));
  p.m_attainable_flops = node.at("attainable_flops_per_s").as_non_negative();
  p.m_bound = node.at("bound").as_string();
  if (p.m_bound != "memory" && p.m_bound != "compute") {
    node.at("bound").fail("expected \"memory\" or \"compute\", got \"" + shorten(p.m_bound) + "\"");
  }
  p.m_fraction = node.at("fraction_of_attainable").as_number();
  p.m_gap = node.at("gap").as_number();
  return p;
}

std::vector<format_table> roofline_tables() {
  return {{"kernelopt.profile: benchmarks[].roofline", k_point_fields},
          {"kernelopt.profile: benchmarks[].roofline.compute_ceiling, bandwidth_ceiling", k_ceiling_fields}};
}

std::optional<spec_file> find_spec(const std::filesystem::path& specs_dir, const std::string& device_name) {
  std::error_code error;
  // Device names are short; a longer one (from a hostile CSV) matches no
  // spec rather than feeding std::regex, whose matcher recurses per character.
  if (device_name.empty() || device_name.size() > 256 || !std::filesystem::is_directory(specs_dir, error)) {
    return std::nullopt;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(specs_dir)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const std::filesystem::path& file : files) {
    spec_file spec = read_spec(file);
    for (std::size_t i = 0; i < spec.m_match.size(); ++i) {
      const std::string& pattern = spec.m_match[i];
      try {
        if (std::regex_search(device_name, std::regex(pattern, std::regex::ECMAScript | std::regex::icase))) return spec;
      } catch (const std::regex_error& e) {
        throw format_error(file.string() + ": /match/" + std::to_string(i) + ": regex \"" + shorten(pattern) +
                           "\" does not compile: " + std::string(e.what()));
      }
    }
  }
  return std::nullopt;
}

}  // namespace kopt::profile
