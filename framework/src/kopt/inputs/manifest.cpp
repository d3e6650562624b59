#include "kopt/inputs/manifest.hpp"

#include <algorithm>
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

const char* const k_manifest_kind = "kernelopt.manifest";

const std::vector<field_doc> k_manifest_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.manifest`"},
    {"kernel", "string", "the kernel's name (the CMake name rule)"},
    {"backend", "string", "`cuda` or `host`"},
    {"args", "array", "the tensor arguments in declaration order"},
    {"dims", "array", "the dimension names the shapes bind"},
    {"shapes", "array", "SHAPES, as declared (`rows=4096,cols=4096`)"},
    {"quick_shapes", "array", "QUICK_SHAPES, likewise"},
    {"seeds", "array", "the correctness trials' seeds (integers >= 0)"},
    {"tolerance", "object | null", "TOLERANCE (the `tolerance` table); null: per-dtype defaults"},
    {"flops", "string", "the FLOPS expression, \"\" when not declared"},
    {"bytes", "string", "the BYTES expression, likewise"},
    {"targets", "array", "TARGETS, as declared"},
    {"max_iterations", "integer | null", "MAX_ITERATIONS: kopt status stops once this many variants have a record; null: no limit"},
    {"records_dir", "string", "absolute, without `..`: records go to `<records_dir>/<kernel>/`"},
    {"reference", "object", "the reference implementation"},
    {"variants", "array", "the variants in declaration order, the loop's order"},
    {"baselines", "array", "the baselines (vendor libraries, ...)"},
    {"timing", "object", "the timing settings"},
    {"test_timeout_s", "number", "TIMEOUT: CTest's limit per generated test process, in seconds"},
    {"executables", "object", "the generated test and benchmark, and kopt"},
    {"tools", "object", "tools found at configure time"},
    {"build_dir", "string", "`<build>/kernelopt/<kernel>`, the manifest's folder; absolute, without `..`"},
};

const std::vector<field_doc> k_arg_fields = {
    {"name", "string", "the argument's name"},
    {"dir", "string", "`in`, `out` or `inout`"},
    {"dtype", "string", "its element type (`f32`, `bf16`, ...)"},
    {"shape", "array", "its axes, dimension names or integers as text"},
    {"init", "string | null", "inputs: how the harness fills it, `<kind>(<lo>,<hi>)` (its INIT entry, bounds stripped, else the dtype's default: `uniform(-1,1)`, `randint(-100,100)`, `randint(0,256)` for u8); null for outputs"},
};

const std::vector<field_doc> k_impl_fields = {
    {"name", "string", "`reference`, or the variant's or baseline's name (the CMake name rule)"},
    {"entry", "string", "the C++ entry function"},
    {"backend", "string", "reference only: the backend it runs on (`host`)"},
    {"precision", "string", "reference only: `f64` or `native`"},
    {"sources", "array", "absolute paths of its source files (the source hash)"},
    {"parent", "string | null", "variants and baselines: the version it improves on; null for the root and baselines"},
    {"hypothesis", "string | null", "variants and baselines: why it should be faster; null when none was given"},
    {"methods", "array", "variants and baselines: METHODS, checked against the machine code (baselines: [])"},
    {"expect_failure", "string | null", "variants and baselines: the EXPECT_FAILURE regex, else null"},
    {"compile_options", "array", "variants and baselines: COMPILE_OPTIONS as declared (in the variant's build hash)"},
    {"build_context", "object",
     "variants: what else the compiler gets, as `compile_definitions`, `compile_options` and `include_directories` (in the source hash, scope `compile`)"},
    {"static", "object", "CUDA variants, when kopt is built: the static check's inputs"},
    {"family", "object", "variants declared with PARAMS: the family of points (docs/sweeps.md)"},
    {"switches", "array", "variants with switchable METHODS (`<method>=<MACRO>`): one object each (docs/ablation.md)"},
};

const std::vector<field_doc> k_family_fields = {
    {"params", "array", "PARAMS as declared, `NAME=v1,v2,...`"},
    {"constraints", "array", "PARAM_CONSTRAINTS: comparisons that hold on every declared shape"},
    {"max_points", "integer | null", "MAX_POINTS, null when not declared"},
    {"space", "integer", "combinations of the PARAMS values"},
    {"valid", "integer", "combinations every constraint allows"},
    {"points", "array", "the points swept, in enumeration order"},
    {"build_command", "array", "`cmake --build <top>` (and `--config`): the point targets follow"},
    {"keep_going", "array", "`--` and the native build tool's keep-going flag (empty when unknown)"},
    {"selection", "string", "`<RECORDS>/<k>/<variant>.selection.json`, written by `kopt select`"},
    {"sweep_dir", "string", "`<build>/kernelopt/<k>/sweep/<variant>`: one result file per point"},
    {"dispatch", "string | null", "the generated dispatch function, null until a selection exists"},
    {"champions", "array | null", "with a dispatch: the point it calls on each declared shape, in `shapes` order; else null"},
};

const std::vector<field_doc> k_point_fields = {
    {"name", "string", "`<variant>_p<index>`, the index in the full space (first parameter slowest)"},
    {"params", "array", "`NAME=value` per parameter"},
    {"target", "string", "the CMake target that builds it (not in ALL); \"\" when `skip` is set"},
    {"library", "string", "the shared library the target makes; \"\" when `skip` is set"},
    {"skip", "string | null", "why this build does not compile the point (its architectures), else null"},
};

const std::vector<field_doc> k_switch_fields = {
    {"method", "string", "the METHOD"},
    {"macro", "string", "the macro: 1 in the variant's build, 0 in the ablated one"},
    {"impl", "string", "the ablated implementation, `<variant>__no_<method>`"},
    {"target", "string", "its module's build target, `<k>_kopt_<variant>__no_<method>` (not in ALL)"},
    {"objects", "array", "CUDA variants with a static check: the ablated build's object files; else []"},
};

const std::vector<field_doc> k_static_fields = {
    {"objects", "array", "the variant's object files"},
    {"args", "array", "the further arguments of its `kopt static` command"},
};

const std::vector<field_doc> k_executables_fields = {
    {"test", "string", "the generated correctness test `<k>_kopt_test`"},
    {"bench", "string", "the generated benchmark `<k>_kopt_bench`, \"\" when there is none"},
    {"kopt", "string | null", "kopt, null when it is not built"},
    {"ablate_test", "string | null", "`<k>_ablate_kopt_test`, the ablation's correctness test; null when no variant has a switch"},
    {"ablate_bench", "string | null", "`<k>_ablate_kopt_bench`, the ablation's benchmark; likewise"},
    {"cmake", "string | null", "the cmake that configured the build (kopt ablate builds the ablated modules with it)"},
};

const std::vector<field_doc> k_tools_fields = {
    {"ncu", "string | null", "Nsight Compute's `ncu`"},
    {"specs_dir", "string | null", "the folder of `kernelopt.spec` files"},
    {"ceilings", "string | null", "KernelOpt_CEILINGS: a `kernelopt.ceilings` file"},
};

json or_null(const std::optional<std::string>& value) { return value ? json(*value) : json(nullptr); }

impl_decl read_impl(const json_reader& node) {
  impl_decl impl{read_name(node.at("name")), node.at("entry").as_string(), strings(node.at("sources")),
                 optional_string(node, "expect_failure")};
  impl.m_backend = optional_string(node, "backend");
  impl.m_precision = optional_string(node, "precision");
  if (node.has("compile_options")) impl.m_compile_options = strings(node.at("compile_options"));
  return impl;
}

json reference_json(const impl_decl& impl) {
  return {{"name", impl.m_name},
          {"entry", impl.m_entry},
          {"backend", or_null(impl.m_backend)},
          {"precision", or_null(impl.m_precision)},
          {"sources", impl.m_sources}};
}

// Generate.cmake writes a baseline as it writes a variant, with no parent,
// hypothesis or methods.
json baseline_json(const impl_decl& impl) {
  return {{"name", impl.m_name},
          {"entry", impl.m_entry},
          {"sources", impl.m_sources},
          {"parent", nullptr},
          {"hypothesis", nullptr},
          {"methods", json::array()},
          {"expect_failure", or_null(impl.m_expect_failure)},
          {"compile_options", impl.m_compile_options}};
}

json variant_json(const variant_decl& v) {
  json out = {{"name", v.m_name},
              {"entry", v.m_entry},
              {"sources", v.m_sources},
              {"parent", or_null(v.m_parent)},
              {"hypothesis", or_null(v.m_hypothesis)},
              {"methods", v.m_methods},
              {"expect_failure", or_null(v.m_expect_failure)},
              {"compile_options", v.m_compile_options}};
  if (v.m_static) out["static"] = {{"objects", v.m_static->m_objects}, {"args", v.m_static->m_args}};
  if (v.m_build_context) {
    out["build_context"] = {{"compile_definitions", v.m_build_context->m_compile_definitions},
                            {"compile_options", v.m_build_context->m_compile_options},
                            {"include_directories", v.m_build_context->m_include_directories}};
  }
  if (v.m_family) {
    const family_decl& f = *v.m_family;
    json points = json::array();
    for (const point_decl& p : f.m_points) {
      points.push_back({{"name", p.m_name},
                        {"params", p.m_params},
                        {"target", p.m_target},
                        {"library", p.m_library},
                        {"skip", or_null(p.m_skip)}});
    }
    out["family"] = {{"params", f.m_params},
                     {"constraints", f.m_constraints},
                     {"max_points", f.m_max_points ? json(*f.m_max_points) : json(nullptr)},
                     {"space", f.m_space},
                     {"valid", f.m_valid},
                     {"points", points},
                     {"build_command", f.m_build_command},
                     {"keep_going", f.m_keep_going},
                     {"selection", f.m_selection},
                     {"sweep_dir", f.m_sweep_dir},
                     {"dispatch", or_null(f.m_dispatch)},
                     {"champions", f.m_champions ? json(*f.m_champions) : json(nullptr)}};
  }
  if (!v.m_switches.empty()) {
    json switches = json::array();
    for (const method_switch& s : v.m_switches) {
      switches.push_back({{"method", s.m_method},
                          {"macro", s.m_macro},
                          {"impl", s.m_impl},
                          {"target", s.m_target},
                          {"objects", s.m_objects}});
    }
    out["switches"] = switches;
  }
  return out;
}

}  // namespace

json to_json(const arg_decl& a) {
  return {{"name", a.m_name}, {"dir", a.m_dir}, {"dtype", a.m_dtype}, {"shape", a.m_shape}, {"init", or_null(a.m_init)}};
}

arg_decl arg_decl_from_json(const json_reader& node) {
  return {node.at("name").as_string(), node.at("dir").as_string(), node.at("dtype").as_string(),
          node.has("shape") ? strings(node.at("shape")) : std::vector<std::string>{}, optional_string(node, "init")};
}

namespace {

family_decl read_family(const json_reader& node) {
  family_decl f;
  f.m_params = strings(node.at("params"));
  f.m_constraints = strings(node.at("constraints"));
  if (node.has("max_points")) f.m_max_points = node.at("max_points").as_count();
  f.m_space = node.at("space").as_count();
  f.m_valid = node.at("valid").as_count();
  const json_reader points = node.at("points");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json_reader p = points.at(i);
    f.m_points.push_back({read_name(p.at("name")), strings(p.at("params")), p.at("target").as_string(),
                          p.at("library").as_string(), optional_string(p, "skip")});
    if (!f.m_points.back().m_skip && f.m_points.back().m_target.empty()) p.at("target").fail("empty, and no skip");
  }
  if (f.m_points.empty()) points.fail("a family has at least one point");
  f.m_build_command = strings(node.at("build_command"));
  if (f.m_build_command.empty()) node.at("build_command").fail("empty");
  f.m_keep_going = strings(node.at("keep_going"));
  f.m_selection = node.at("selection").as_string();
  f.m_sweep_dir = node.at("sweep_dir").as_string();
  f.m_dispatch = optional_string(node, "dispatch");
  if (node.has("champions")) {
    f.m_champions = strings(node.at("champions"));
    for (std::size_t i = 0; i < f.m_champions->size(); ++i) {
      if (f.point((*f.m_champions)[i]) == nullptr) node.at("champions").at(i).fail("not a point of the family");
    }
  }
  return f;
}

}  // namespace

std::vector<std::string> manifest::input_dtypes() const {
  std::vector<std::string> dtypes;
  for (const arg_decl& a : m_args) {
    if (a.m_dir != "out") dtypes.push_back(a.m_dtype);
  }
  return dtypes;
}

const method_switch* variant_decl::find_switch(const std::string& method) const {
  for (const method_switch& s : m_switches) {
    if (s.m_method == method) return &s;
  }
  return nullptr;
}

int manifest::variant_index(const std::string& name) const {
  for (std::size_t i = 0; i < m_variants.size(); ++i) {
    if (m_variants[i].m_name == name) return static_cast<int>(i);
  }
  return -1;
}

const point_decl* family_decl::point(const std::string& name) const {
  for (const point_decl& p : m_points) {
    if (p.m_name == name) return &p;
  }
  return nullptr;
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

manifest manifest_from_json(const json_reader& root, const std::filesystem::path& path) {
  (void)check_kind(root, k_manifest_kind, k_manifest_schema_version);
  manifest m;
  m.m_path = path;
  // Names and directories become paths kopt writes under: confined here.
  m.m_kernel = read_name(root.at("kernel"));
  m.m_backend = root.at("backend").as_string();
  if (root.has("args")) {
    const json_reader args = root.at("args");
    for (std::size_t i = 0; i < args.size(); ++i) m.m_args.push_back(arg_decl_from_json(args.at(i)));
  }
  if (root.has("dims")) m.m_dims = strings(root.at("dims"));
  m.m_shapes = strings(root.at("shapes"));
  m.m_quick_shapes = strings(root.at("quick_shapes"));
  const json_reader seeds = root.at("seeds");
  for (std::size_t i = 0; i < seeds.size(); ++i) m.m_seeds.push_back(seeds.at(i).as_non_negative_integer());
  m.m_tolerance = tolerance_from_json(root.at("tolerance"));
  m.m_flops = root.has("flops") ? root.at("flops").as_string() : "";
  m.m_bytes = root.has("bytes") ? root.at("bytes").as_string() : "";
  m.m_targets = strings(root.at("targets"));
  if (root.has("max_iterations")) m.m_max_iterations = root.at("max_iterations").as_count();
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
    if (v.has("compile_options")) decl.m_compile_options = strings(v.at("compile_options"));
    if (v.has("build_context")) {
      const json_reader c = v.at("build_context");
      decl.m_build_context = build_context{strings(c.at("compile_definitions")), strings(c.at("compile_options")),
                                           strings(c.at("include_directories"))};
    }
    if (v.has("static")) {
      const json_reader st = v.at("static");
      decl.m_static = static_check{strings(st.at("objects")), strings(st.at("args"))};
    }
    if (v.has("family")) {
      decl.m_family = read_family(v.at("family"));
      if (decl.m_family->m_champions && decl.m_family->m_champions->size() != m.m_shapes.size()) {
        v.at("family").at("champions").fail("has " + std::to_string(decl.m_family->m_champions->size()) +
                                            " points; the kernel declares " + std::to_string(m.m_shapes.size()) +
                                            " shapes");
      }
    }
    if (v.has("switches")) {
      const json_reader switches = v.at("switches");
      for (std::size_t j = 0; j < switches.size(); ++j) {
        const json_reader s = switches.at(j);
        method_switch sw{s.at("method").as_string(), s.at("macro").as_string(), read_name(s.at("impl")),
                         s.at("target").as_string(), strings(s.at("objects"))};
        if (std::find(decl.m_methods.begin(), decl.m_methods.end(), sw.m_method) == decl.m_methods.end()) {
          s.at("method").fail("'" + sw.m_method + "' is not one of the variant's methods");
        }
        decl.m_switches.push_back(std::move(sw));
      }
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
  m.m_kopt_executable = optional_string(executables, "kopt");
  m.m_ablate_test_executable = optional_string(executables, "ablate_test");
  m.m_ablate_bench_executable = optional_string(executables, "ablate_bench");
  m.m_cmake_executable = optional_string(executables, "cmake");
  // Checked like records_dir (a path kopt could write under); kopt uses the
  // manifest's own folder, which is the same (build_dir()).
  if (root.has("build_dir")) (void)read_root_dir(root.at("build_dir"));
  if (root.has("tools")) {
    const json_reader tools = root.at("tools");
    m.m_tools.m_ncu = optional_string(tools, "ncu");
    m.m_tools.m_specs_dir = optional_string(tools, "specs_dir");
    m.m_tools.m_ceilings = optional_string(tools, "ceilings");
  }
  return m;
}

manifest read_manifest(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  return manifest_from_json(json_reader(doc, path.string()), path);
}

json to_json(const manifest& m) {
  json args = json::array();
  for (const arg_decl& a : m.m_args) args.push_back(to_json(a));
  json variants = json::array();
  for (const variant_decl& v : m.m_variants) variants.push_back(variant_json(v));
  json baselines = json::array();
  for (const impl_decl& b : m.m_baselines) baselines.push_back(baseline_json(b));
  json out = {{"schema_version", k_manifest_schema_version},
              {"kind", k_manifest_kind},
              {"kernel", m.m_kernel},
              {"backend", m.m_backend},
              {"args", args},
              {"dims", m.m_dims},
              {"shapes", m.m_shapes},
              {"quick_shapes", m.m_quick_shapes},
              {"seeds", m.m_seeds},
              {"tolerance", to_json(m.m_tolerance)},
              {"flops", m.m_flops},
              {"bytes", m.m_bytes},
              {"targets", m.m_targets},
              {"max_iterations", m.m_max_iterations ? json(*m.m_max_iterations) : json(nullptr)},
              {"records_dir", m.m_records_dir.string()}};
  if (m.m_reference) out["reference"] = reference_json(*m.m_reference);
  out["variants"] = variants;
  out["baselines"] = baselines;
  json timing = to_json(m.m_timing);
  if (!m.m_timing.m_l2_flush_bytes) timing.erase("l2_flush_bytes");  // the bench's own, not declared
  out["timing"] = timing;
  if (m.m_test_timeout_s) out["test_timeout_s"] = *m.m_test_timeout_s;
  out["executables"] = {{"test", m.m_test_executable},
                        {"bench", m.m_bench_executable},
                        {"kopt", or_null(m.m_kopt_executable)},
                        {"ablate_test", or_null(m.m_ablate_test_executable)},
                        {"ablate_bench", or_null(m.m_ablate_bench_executable)}};
  out["executables"]["cmake"] = or_null(m.m_cmake_executable);
  out["tools"] = {{"ncu", or_null(m.m_tools.m_ncu)},
                  {"specs_dir", or_null(m.m_tools.m_specs_dir)},
                  {"ceilings", or_null(m.m_tools.m_ceilings)}};
  out["build_dir"] = m.build_dir().string();
  return out;
}

std::vector<format_table> manifest_tables() {
  return {{"kernelopt.manifest", k_manifest_fields},
          {"kernelopt.manifest: args[]", k_arg_fields},
          {"kernelopt.manifest: reference, variants[], baselines[]", k_impl_fields},
          {"kernelopt.manifest: variants[].static", k_static_fields},
          {"kernelopt.manifest: variants[].family", k_family_fields},
          {"kernelopt.manifest: variants[].family.points[]", k_point_fields},
          {"kernelopt.manifest: variants[].switches[]", k_switch_fields},
          {"kernelopt.manifest: executables", k_executables_fields},
          {"kernelopt.manifest: tools", k_tools_fields}};
}

}  // namespace kopt
