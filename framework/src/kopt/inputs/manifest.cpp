#include "kopt/inputs/manifest.hpp"

#include <stdexcept>

#include "kopt/inputs/names.hpp"

namespace kopt {
namespace {

std::vector<std::string> strings(const json_reader& node) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < node.size(); ++i) out.push_back(node.at(i).as_string());
  return out;
}

std::optional<std::string> optional_string(const json_reader& parent, const std::string& key) {
  if (!parent.has(key)) return std::nullopt;
  return parent.at(key).as_string();
}

impl_decl read_impl(const json_reader& node) {
  return {read_name(node.at("name")), node.at("entry").as_string(), strings(node.at("sources")),
          optional_string(node, "expect_failure")};
}

}  // namespace

json tolerance_from_json(const json_reader& node) {
  if (node.is_null()) return nullptr;
  if (!node.raw().is_object()) node.fail("expected an object {rtol, atol, ...} or null");
  for (const char* key : {"rtol", "atol", "max_rel_l2"}) {
    if (node.has(key)) (void)node.at(key).as_non_negative();
  }
  return node.raw();
}

bool timing_settings::same_as(const timing_settings& other) const {
  const bool l2_same =
      !m_l2_flush_bytes || !other.m_l2_flush_bytes || *m_l2_flush_bytes == *other.m_l2_flush_bytes;
  return m_min_samples == other.m_min_samples && m_min_time_s == other.m_min_time_s &&
         m_max_noise == other.m_max_noise && m_timeout_s == other.m_timeout_s &&
         m_warmup_samples == other.m_warmup_samples && l2_same;
}

json to_json(const timing_settings& s) {
  return {{"min_samples", s.m_min_samples},
          {"min_time_s", s.m_min_time_s},
          {"max_noise", s.m_max_noise},
          {"timeout_s", s.m_timeout_s},
          {"warmup_samples", s.m_warmup_samples},
          {"l2_flush_bytes", s.m_l2_flush_bytes ? json(*s.m_l2_flush_bytes) : json(nullptr)}};
}

timing_settings timing_settings_from_json(const json_reader& node) {
  timing_settings s;
  s.m_min_samples = node.at("min_samples").as_count();
  s.m_min_time_s = node.at("min_time_s").as_non_negative();
  s.m_max_noise = node.at("max_noise").as_non_negative();
  s.m_timeout_s = node.at("timeout_s").as_positive();
  s.m_warmup_samples = node.at("warmup_samples").as_non_negative_integer();
  if (node.has("l2_flush_bytes")) s.m_l2_flush_bytes = node.at("l2_flush_bytes").as_non_negative_integer();
  return s;
}

int manifest::variant_index(const std::string& name) const {
  for (std::size_t i = 0; i < m_variants.size(); ++i) {
    if (m_variants[i].m_name == name) return static_cast<int>(i);
  }
  return -1;
}

const variant_decl& manifest::variant(const std::string& name) const {
  const int index = variant_index(name);
  if (index < 0) {
    std::string known;
    for (const variant_decl& v : m_variants) known += (known.empty() ? "" : ", ") + v.m_name;
    throw std::runtime_error(m_path.string() + ": kernel " + m_kernel + " has no variant '" + name +
                             "' (declared: " + known + ")");
  }
  return m_variants[static_cast<std::size_t>(index)];
}

bool manifest::expects_failure(const std::string& name) const {
  for (const variant_decl& v : m_variants) {
    if (v.m_name == name) return v.m_expect_failure.has_value();
  }
  for (const impl_decl& b : m_baselines) {
    if (b.m_name == name) return b.m_expect_failure.has_value();
  }
  return false;
}

// read_manifest checked the names; a manifest built in code, or a variant
// named on the command line, is checked here, before it becomes a path.
std::filesystem::path manifest::kernel_records_dir() const {
  check_name(m_kernel, m_path.string(), "/kernel");
  return m_records_dir / m_kernel;
}

std::filesystem::path manifest::record_path(const std::string& variant) const {
  check_name(variant, m_path.string(), "variant");
  return kernel_records_dir() / (variant + ".json");
}

manifest read_manifest(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  check_kind(doc, path, "kernelopt.manifest", 1);
  const json_reader root(doc, path.string());
  manifest m;
  m.m_path = path;
  // Names and directories become paths kopt writes under: confined here.
  m.m_kernel = read_name(root.at("kernel"));
  m.m_backend = root.at("backend").as_string();
  m.m_shapes = strings(root.at("shapes"));
  m.m_quick_shapes = strings(root.at("quick_shapes"));
  const json_reader seeds = root.at("seeds");
  for (std::size_t i = 0; i < seeds.size(); ++i) m.m_seeds.push_back(seeds.at(i).as_non_negative_integer());
  m.m_tolerance = tolerance_from_json(root.at("tolerance"));
  m.m_flops = root.has("flops") ? root.at("flops").as_string() : "";
  m.m_bytes = root.has("bytes") ? root.at("bytes").as_string() : "";
  m.m_targets = strings(root.at("targets"));
  if (root.has("max_iterations")) m.m_max_iterations = root.at("max_iterations").as_count();
  if (root.has("args")) {
    const json_reader args = root.at("args");
    for (std::size_t i = 0; i < args.size(); ++i) {
      const json_reader arg = args.at(i);
      if (arg.has("dir") && arg.at("dir").as_string() == "out") continue;
      if (arg.has("dtype")) m.m_input_dtypes.push_back(arg.at("dtype").as_string());
    }
  }
  m.m_records_dir = read_root_dir(root.at("records_dir"));
  if (root.has("reference")) m.m_reference = read_impl(root.at("reference"));
  const json_reader variants = root.at("variants");
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const json_reader v = variants.at(i);
    variant_decl decl;
    decl.m_name = read_name(v.at("name"));
    decl.m_entry = v.at("entry").as_string();
    decl.m_sources = strings(v.at("sources"));
    if (v.has("parent")) decl.m_parent = read_name(v.at("parent"));
    decl.m_hypothesis = optional_string(v, "hypothesis");
    decl.m_methods = strings(v.at("methods"));
    decl.m_expect_failure = optional_string(v, "expect_failure");
    if (v.has("static")) {
      const json_reader st = v.at("static");
      decl.m_static = static_check{strings(st.at("objects")), strings(st.at("args"))};
    }
    m.m_variants.push_back(std::move(decl));
  }
  if (m.m_variants.empty()) variants.fail("no variants declared");
  const json_reader baselines = root.at("baselines");
  for (std::size_t i = 0; i < baselines.size(); ++i) m.m_baselines.push_back(read_impl(baselines.at(i)));
  m.m_timing = timing_settings_from_json(root.at("timing"));
  if (root.has("test_timeout_s")) {
    m.m_test_timeout_s = root.at("test_timeout_s").as_number();
    if (!(*m.m_test_timeout_s > 0)) root.at("test_timeout_s").fail("must be a positive number of seconds");
  }
  const json_reader executables = root.at("executables");
  m.m_test_executable = executables.at("test").as_string();
  m.m_bench_executable = executables.at("bench").as_string();
  m.m_build_dir = root.has("build_dir") ? read_root_dir(root.at("build_dir")) : path.parent_path();
  if (root.has("tools")) {
    const json_reader tools = root.at("tools");
    m.m_tools.m_ncu = optional_string(tools, "ncu");
    m.m_tools.m_specs_dir = optional_string(tools, "specs_dir");
    m.m_tools.m_ceilings = optional_string(tools, "ceilings");
  }
  return m;
}

}  // namespace kopt
