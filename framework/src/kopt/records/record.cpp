#include "kopt/records/record.hpp"

#include "kopt/inputs/names.hpp"

namespace kopt {
namespace {

const std::vector<field_doc> k_record_fields = {
    {"schema_version", "integer", "2 (records of schema 1 are read with the rules of schema 1)"},
    {"kind", "string", "`kernelopt.record`"},
    {"kernel", "string", "the kernel"},
    {"variant", "string", "the variant"},
    {"parent", "string | null", "the variant it was derived from"},
    {"hypothesis", "string | null", "what should move and by how much"},
    {"methods", "array", "the METHODS it claims"},
    {"source", "object", "`sha256` over its sources, the headers they include and its compile options (`scope`), and each file's"},
    {"created_utc", "string", "when it was recorded (by `kopt merge`: when the shard run that made its results finished)"},
    {"kernelopt_version", "string | null", "the KernelOpt version that recorded it (absent in older records)"},
    {"masked", "object | null", "`{reason, utc}` once `kopt mask` ran"},
    {"shapes", "array", "the declared shapes when recorded"},
    {"seeds", "array", "the declared seeds"},
    {"tolerance", "object | null", "the declared tolerance (the `tolerance` table); null: per-dtype defaults"},
    {"timing_settings", "object", "the timing settings it was benchmarked with"},
    {"inputs", "object", "what it was tested and timed on and checked against: ARGS with their fills, DIMS, the reference (absent in records made before kopt kept them)"},
    {"correctness", "object", "per-shape correctness summarized from the results"},
    {"timing", "object", "per-shape timing from the benchmark file"},
    {"gate", "object", "the decision when recorded"},
    {"env", "object", "the `kernelopt.env` document, or why there is none"},
    {"ceilings", "object | null", "the `kernelopt.ceilings` document (with spec rates)"},
    {"profile", "object", "the `kernelopt.profile` document, or why there is none"},
    {"static", "object", "the `kernelopt.static` document, or why there is none"},
    {"failure", "object | null", "`{step, cause}` when a step did not finish"},
    {"ablation", "object | null", "per switchable METHOD, its attribution and class, once `kopt ablate` ran"},
    {"dispatch", "object", "family variants only (docs/sweeps.md): which point served which shape"},
};

const std::vector<field_doc> k_dispatch_fields = {
    {"selection_utc", "string", "the `utc` of the `kernelopt.selection` the dispatch was generated from"},
    {"served", "array", "per declared shape: `shape`, `point`, `params` (`NAME=value`)"},
};

const std::vector<field_doc> k_timing_fields = {
    {"bench_file", "string", "the benchmark file's base name"},
    {"device", "string | null", "the device it was timed on"},
    {"gpu", "object | null", "which GPU (the bench's `kopt.gpu`: the `gpu` table)"},
    {"quick", "boolean", "only the quick shapes were timed"},
    {"best_so_far", "string | null", "the best variant when recorded"},
    {"shapes", "array", "per timed shape, in manifest order"},
};

const std::vector<field_doc> k_shape_fields = {
    {"shape", "string", "the shape as declared"},
    {"error", "string | null", "why this shape's benchmark failed (then no timing)"},
    {"tflops", "number | null", "from the benchmark"},
    {"gbps", "number | null", "from the benchmark"},
    {"pct_of_ceiling", "object | null", "the benchmark's, or computed from `--ceilings`"},
    {"clock", "object | null", "the benchmark's NVML clock record (the `clock` table)"},
    {"second_clock", "object", "the benchmark's second clock (the `second_clock` table)"},
    {"flags", "array", "the benchmark's flags"},
    {"speedup", "object", "`parent`, `best_so_far`, `reference`, `baselines`: other median / this median"},
    {"measured_with", "array", "`{impl, role, median_ns, noise}` of the others timed in the same file"},
    {"output_check", "object | null", "`{status, detail}` from the benchmark row"},
    {"paired_vs_best", "object | null", "`{impl, speedup, noise, rounds}`: round by round against the best"},
};

const std::vector<field_doc> k_gate_fields = {
    {"decision", "string", "`ACCEPT` or `REJECT`"},
    {"reasons", "array", "REJECT: every failed rule's detail; ACCEPT: every rule's"},
    {"notices", "array", "stagnation, target met, quick shapes"},
    {"checks", "array", "`{rule, ok, detail}` for every rule"},
    {"best_so_far", "string | null", "the record it was compared with"},
    {"best_after", "string | null", "the best once this decision stands"},
    {"targets", "array", "`{target, status, details}`: each TARGET on `best_after`"},
    {"target_met", "boolean", "every TARGET met"},
    {"evaluated_utc", "string", "when the gate ran (by `kopt merge`: as created_utc)"},
};

template <class T>
json to_json(const embedded_document<T>& embedded) {
  if (embedded.m_document) return to_json(*embedded.m_document);
  return {{"status", "unavailable"}, {"reason", embedded.m_reason}};
}

// A document has its kind; without one, {"status": "unavailable", "reason"}.
template <class T, class Read>
embedded_document<T> embedded_from_json(const json_reader& node, Read read) {
  if (!node.raw().is_object()) node.fail("expected an object (a document, or {status, reason})");
  if (node.raw().contains("kind")) return {read(node), ""};
  const std::string status = node.at("status").as_string();
  if (status != "unavailable") {
    node.at("status").fail("expected \"unavailable\" (or a document with its kind), got \"" + shorten(status) + "\"");
  }
  return embedded_document<T>::unavailable(node.at("reason").as_string());
}

// Optional values: null or absent is "not defined"; present, they must be in range.
std::optional<double> optional_positive(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_positive();
}

std::optional<double> optional_non_negative(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_non_negative();
}

std::optional<std::string> optional_string(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_string();
}

std::vector<std::string> strings(const json_reader& node) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < node.size(); ++i) out.push_back(node.at(i).as_string());
  return out;
}

json to_json(const std::optional<paired_timing>& p) {
  if (!p) return nullptr;
  return {{"impl", p->m_impl}, {"speedup", p->m_speedup}, {"noise", p->m_noise}, {"rounds", p->m_rounds}};
}

json output_check_json(const shape_timing& t) {
  if (!t.m_output_check) return nullptr;
  return {{"status", *t.m_output_check}, {"detail", string_or_null(t.m_output_detail)}};
}

void read_output_check(const json_reader& node, shape_timing& t) {
  if (!node.has("output_check")) return;
  const json_reader check = node.at("output_check");
  t.m_output_check = check.at("status").as_string();
  if (*t.m_output_check != "pass" && *t.m_output_check != "fail" && *t.m_output_check != "unavailable") {
    check.at("status").fail("expected \"pass\", \"fail\" or \"unavailable\"");
  }
  t.m_output_detail = optional_string(check, "detail");
}

json to_json(const shape_timing& t) {
  if (t.m_error) return {{"shape", t.m_shape.text()}, {"error", *t.m_error}, {"output_check", output_check_json(t)}};
  json baselines = json::object();
  for (const auto& [name, value] : t.m_speedup_vs_baselines) baselines[name] = number_or_null(value);
  json measured = json::array();
  for (const measured_impl& m : t.m_measured_with) {
    measured.push_back({{"impl", m.m_impl},
                        {"role", m.m_role},
                        {"median_ns", m.m_median_ns},
                        {"noise", number_or_null(m.m_noise)}});
  }
  json j = {{"shape", t.m_shape.text()}, {"error", nullptr}};
  add_to_json(t.m_stats, j);
  j["tflops"] = number_or_null(t.m_tflops);
  j["gbps"] = number_or_null(t.m_gbps);
  j["pct_of_ceiling"] = fractions_to_json(t.m_pct_of_ceiling);
  j["clock"] = t.m_clock ? to_json(*t.m_clock) : json(nullptr);
  j["second_clock"] = t.m_second_clock ? to_json(*t.m_second_clock) : json(nullptr);
  j["flags"] = t.m_flags;
  j["speedup"] = {{"parent", number_or_null(t.m_speedup_vs_parent)},
                  {"best_so_far", number_or_null(t.m_speedup_vs_best)},
                  {"reference", number_or_null(t.m_speedup_vs_reference)},
                  {"baselines", baselines}};
  j["measured_with"] = measured;
  j["output_check"] = output_check_json(t);
  j["paired_vs_best"] = to_json(t.m_paired_vs_best);
  return j;
}

shape_timing shape_timing_from_json(const json_reader& node) {
  shape_timing t;
  t.m_shape = shape::parse(node.at("shape").as_string());
  read_output_check(node, t);
  if (node.has("error")) {
    t.m_error = node.at("error").as_string();
    return t;
  }
  t.m_stats = timing_stats_from_json(node);
  t.m_tflops = optional_non_negative(node, "tflops");
  t.m_gbps = optional_non_negative(node, "gbps");
  t.m_pct_of_ceiling = fractions_from_json(node.at("pct_of_ceiling"));
  if (!node.at("clock").is_null()) t.m_clock = clock_window_from_json(node.at("clock"));
  if (!node.at("second_clock").is_null()) t.m_second_clock = second_clock_from_json(node.at("second_clock"));
  t.m_flags = strings(node.at("flags"));
  const json_reader speedup = node.at("speedup");
  t.m_speedup_vs_parent = optional_positive(speedup, "parent");
  t.m_speedup_vs_best = optional_positive(speedup, "best_so_far");
  t.m_speedup_vs_reference = optional_positive(speedup, "reference");
  const json_reader baselines = speedup.at("baselines");
  if (!baselines.raw().is_object()) baselines.fail("expected an object");
  for (const auto& item : baselines.raw().items()) {
    t.m_speedup_vs_baselines.emplace_back(item.key(), optional_positive(baselines, item.key()));
  }
  const json_reader measured = node.at("measured_with");
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const json_reader m = measured.at(i);
    t.m_measured_with.push_back({m.at("impl").as_string(), m.at("role").as_string(),
                                 m.at("median_ns").as_positive(), optional_non_negative(m, "noise")});
  }
  if (node.has("paired_vs_best")) {
    const json_reader p = node.at("paired_vs_best");
    t.m_paired_vs_best = paired_timing{p.at("impl").as_string(), p.at("speedup").as_number(),
                                       p.at("noise").as_number(), p.at("rounds").as_integer()};
  }
  return t;
}

json to_json(const timing_summary& t) {
  json shapes = json::array();
  for (const shape_timing& s : t.m_shapes) shapes.push_back(to_json(s));
  return {{"bench_file", t.m_bench_file},
          {"device", t.m_device.empty() ? json(nullptr) : json(t.m_device)},
          {"gpu", to_json(t.m_gpu)},
          {"quick", t.m_quick},
          {"best_so_far", string_or_null(t.m_best_so_far)},
          {"shapes", shapes}};
}

timing_summary timing_from_json(const json_reader& node) {
  timing_summary t;
  t.m_bench_file = node.at("bench_file").as_string();
  if (node.has("device")) t.m_device = node.at("device").as_string();
  if (node.has("gpu")) t.m_gpu = gpu_info_from_json(node.at("gpu"));
  t.m_quick = node.at("quick").as_bool();
  t.m_best_so_far = optional_string(node, "best_so_far");
  const json_reader shapes = node.at("shapes");
  for (std::size_t i = 0; i < shapes.size(); ++i) t.m_shapes.push_back(shape_timing_from_json(shapes.at(i)));
  return t;
}

gate_result gate_from_json(const json_reader& node) {
  gate_result g;
  g.m_decision = node.at("decision").as_string();
  if (g.m_decision != "ACCEPT" && g.m_decision != "REJECT") {
    node.at("decision").fail("expected \"ACCEPT\" or \"REJECT\", got \"" + shorten(g.m_decision) + "\"");
  }
  g.m_reasons = strings(node.at("reasons"));
  g.m_notices = strings(node.at("notices"));
  const json_reader checks = node.at("checks");
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const json_reader c = checks.at(i);
    g.m_checks.push_back({c.at("rule").as_string(), c.at("ok").as_bool(), c.at("detail").as_string()});
  }
  g.m_best_so_far = optional_string(node, "best_so_far");
  g.m_best_after = optional_string(node, "best_after");
  const json_reader targets = node.at("targets");
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const json_reader t = targets.at(i);
    g.m_targets.push_back({t.at("target").as_string(), t.at("status").as_string(), strings(t.at("details"))});
  }
  g.m_target_met = node.at("target_met").as_bool();
  g.m_evaluated_utc = node.at("evaluated_utc").as_string();
  return g;
}

}  // namespace

const measured_impl* shape_timing::measured(const std::string& impl) const {
  for (const measured_impl& m : m_measured_with) {
    if (m.m_impl == impl) return &m;
  }
  return nullptr;
}

const shape_timing* timing_summary::find(const std::string& shape) const {
  for (const shape_timing& s : m_shapes) {
    if (s.m_shape == shape) return &s;
  }
  return nullptr;
}

json to_json(const gate_result& g) {
  json checks = json::array();
  for (const gate_check& c : g.m_checks) {
    checks.push_back({{"rule", c.m_rule}, {"ok", c.m_ok}, {"detail", c.m_detail}});
  }
  json targets = json::array();
  for (const target_result& t : g.m_targets) {
    targets.push_back({{"target", t.m_target}, {"status", t.m_status}, {"details", t.m_details}});
  }
  return {{"decision", g.m_decision},
          {"reasons", g.m_reasons},
          {"notices", g.m_notices},
          {"checks", checks},
          {"best_so_far", string_or_null(g.m_best_so_far)},
          {"best_after", string_or_null(g.m_best_after)},
          {"targets", targets},
          {"target_met", g.m_target_met},
          {"evaluated_utc", g.m_evaluated_utc}};
}

std::optional<std::string> profiled_bottleneck(const record& r) {
  if (!r.m_profile.m_document) return std::nullopt;
  const profile::impl_profile* own = profile::single_impl(*r.m_profile.m_document);
  if (own == nullptr) return std::nullopt;
  return own->m_bottleneck;
}

json to_json(const mask_info& masked) { return {{"reason", masked.m_reason}, {"utc", masked.m_utc}}; }

json to_json(const record& r) {
  json out = {{"schema_version", r.m_schema_version},
          {"kind", k_record_kind},
          {"kernel", r.m_kernel},
          {"variant", r.m_variant},
          {"parent", string_or_null(r.m_parent)},
          {"hypothesis", string_or_null(r.m_hypothesis)},
          {"methods", r.m_methods},
          {"source", to_json(r.m_source)},
          {"created_utc", r.m_created_utc},
          {"kernelopt_version", string_or_null(r.m_kernelopt_version)},
          {"masked", r.m_masked ? to_json(*r.m_masked) : json(nullptr)},
          {"shapes", r.m_shapes},
          {"seeds", r.m_seeds},
          {"tolerance", to_json(r.m_tolerance)},
          {"timing_settings", to_json(r.m_timing_settings)},
          {"inputs", r.m_inputs ? to_json(*r.m_inputs) : json()},
          {"correctness", to_json(r.m_correctness)},
          {"timing", to_json(r.m_timing)},
          {"gate", to_json(r.m_gate)},
          {"env", to_json(r.m_env)},
          {"ceilings", r.m_ceilings ? to_json(*r.m_ceilings) : json(nullptr)},
          {"profile", to_json(r.m_profile)},
          {"static", to_json(r.m_static)},
          {"failure", r.m_failure ? json{{"step", r.m_failure->m_step}, {"cause", r.m_failure->m_cause}}
                                  : json(nullptr)},
          {"ablation", r.m_ablation ? to_json(*r.m_ablation) : json(nullptr)}};
  if (!r.m_inputs) out.erase("inputs");  // a record made before kopt kept them stays as it was
  if (r.m_dispatch) {
    json served = json::array();
    for (const served_shape& s : r.m_dispatch->m_served) {
      served.push_back({{"shape", s.m_shape}, {"point", s.m_point}, {"params", s.m_params}});
    }
    out["dispatch"] = {{"selection_utc", r.m_dispatch->m_selection_utc}, {"served", served}};
  }
  return out;
}

record record_from_json(const json& doc, const std::string& file) {
  const json_reader root(doc, file);
  record r;
  r.m_schema_version = static_cast<int>(root.at("schema_version").as_integer());
  r.m_kernel = read_name(root.at("kernel"));
  r.m_variant = read_name(root.at("variant"));
  if (root.has("parent")) r.m_parent = read_name(root.at("parent"));
  r.m_hypothesis = optional_string(root, "hypothesis");
  r.m_methods = strings(root.at("methods"));
  r.m_source = source_hash_from_json(root.at("source"));
  r.m_created_utc = root.at("created_utc").as_string();
  r.m_kernelopt_version = optional_string(root, "kernelopt_version");
  if (root.has("masked")) {
    const json_reader masked = root.at("masked");
    r.m_masked = mask_info{masked.at("reason").as_string(), masked.at("utc").as_string()};
  }
  r.m_shapes = strings(root.at("shapes"));
  const json_reader seeds = root.at("seeds");
  for (std::size_t i = 0; i < seeds.size(); ++i) r.m_seeds.push_back(seeds.at(i).as_non_negative_integer());
  r.m_tolerance = tolerance_from_json(root.at("tolerance"));
  r.m_timing_settings = timing_settings_from_json(root.at("timing_settings"));
  if (root.has("inputs")) r.m_inputs = measured_inputs_from_json(root.at("inputs"));
  r.m_correctness = correctness_from_json(root.at("correctness"));
  r.m_timing = timing_from_json(root.at("timing"));
  r.m_gate = gate_from_json(root.at("gate"));
  r.m_env = embedded_from_json<env_file>(root.at("env"), env_from_json);
  if (!root.at("ceilings").is_null()) r.m_ceilings = ceilings_from_json(root.at("ceilings"));
  r.m_profile = embedded_from_json<profile::profile_document>(root.at("profile"), profile::profile_document_from_json);
  r.m_static = embedded_from_json<static_result>(root.at("static"), static_result_from_json);
  if (root.has("failure")) {
    const json_reader failure = root.at("failure");
    r.m_failure = run_failure{failure.at("step").as_string(), failure.at("cause").as_string()};
  }
  if (root.has("ablation")) r.m_ablation = ablation_from_json(root.at("ablation"));
  if (root.has("dispatch")) {
    const json_reader dispatch = root.at("dispatch");
    dispatch_info info;
    info.m_selection_utc = dispatch.at("selection_utc").as_string();
    const json_reader served = dispatch.at("served");
    for (std::size_t i = 0; i < served.size(); ++i) {
      const json_reader s = served.at(i);
      info.m_served.push_back({s.at("shape").as_string(), read_name(s.at("point")), strings(s.at("params"))});
    }
    r.m_dispatch = info;
  }
  return r;
}

record read_record(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  check_kind(doc, path, k_record_kind, k_record_schema_version);
  return record_from_json(doc, path.string());
}

void write_record_ablation(const std::filesystem::path& path, const ablation_result& ablation) {
  json doc = read_json_file(path);
  check_kind(doc, path, k_record_kind, k_record_schema_version);
  (void)record_from_json(doc, path.string());  // a valid record before we touch it
  doc["ablation"] = to_json(ablation);
  write_json_atomic(path, doc);
}

std::vector<format_table> record_tables() {
  std::vector<format_table> tables = {{"kernelopt.record", k_record_fields},
                                      {"kernelopt.record: timing", k_timing_fields},
                                      {"kernelopt.record: timing.shapes[]", k_shape_fields},
                                      {"kernelopt.record: gate", k_gate_fields},
                                      {"kernelopt.record: dispatch", k_dispatch_fields}};
  for (format_table& t : ablation_tables()) tables.push_back(std::move(t));
  for (format_table& t : measured_inputs_tables()) tables.push_back(std::move(t));
  return tables;
}

}  // namespace kopt
