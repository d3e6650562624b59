// docs/formats.md against the types: every field table the code declares
// (format_table, next to each to_json) appears in the doc, under
// `<!-- fields: TITLE -->`, row for row; the doc has no table the code does
// not; and each to_json writes exactly the fields its tables declare.
// After an intended change, rewrite the doc's tables from the code with
//   KOPT_UPDATE_DOCS=1 ctest --test-dir build-ci -R formats.doc_tables
// and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "formats/bench_result.hpp"
#include "formats/ceilings.hpp"
#include "formats/clocks.hpp"
#include "formats/correctness_result.hpp"
#include "formats/env.hpp"
#include "formats/gpu.hpp"
#include "formats/spec.hpp"
#include "formats/static_result.hpp"
#include "formats/timing_settings.hpp"
#include "formats/timing_stats.hpp"
#include "formats/tolerance.hpp"
#include "kopt/compare/compare_document.hpp"
#include "kopt/experience/entry.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/profile/document.hpp"
#include "kopt/records/perf_baseline.hpp"
#include "kopt/records/record.hpp"
#include "kopt/sweep/point_result.hpp"
#include "kopt/sweep/selection.hpp"

namespace kopt {
namespace {

const std::string k_doc = std::string(KOPT_SOURCE_DIR) + "/docs/formats.md";
const std::string k_marker = "<!-- fields: ";

std::vector<format_table> code_tables() {
  std::vector<format_table> all;
  for (std::vector<format_table> part :
       {ceilings_tables(), bench_tables(), std::vector<format_table>{timing_stats_table(), timing_settings_table(), tolerance_table()},
        correctness_tables(), record_tables(), manifest_tables(), spec_tables(), compare_tables(),
        profile::profile_tables(), experience_tables(), env_tables(), gpu_tables(), clock_tables(), static_tables(),
        perf_baseline_tables(), sweep_point_tables(), selection_tables()}) {
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

std::string escape_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::vector<std::string> render(const format_table& table) {
  std::vector<std::string> lines = {"| field | type | meaning |", "|---|---|---|"};
  for (const field_doc& f : table.m_fields) {
    lines.push_back("| `" + std::string(f.m_name) + "` | " + escape_cell(f.m_type) + " | " + escape_cell(f.m_meaning) +
                    " |");
  }
  return lines;
}

std::vector<std::string> doc_lines() {
  std::ifstream in(k_doc);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Title -> (first line of the table, its lines) for each marked table.
struct doc_table {
  std::size_t m_first = 0;
  std::vector<std::string> m_lines;
};
std::map<std::string, doc_table> doc_tables(const std::vector<std::string>& lines) {
  std::map<std::string, doc_table> tables;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(k_marker, 0) != 0) continue;
    const std::size_t end = lines[i].find(" -->");
    doc_table t;
    t.m_first = i + 1;
    for (std::size_t j = i + 1; j < lines.size() && lines[j].rfind("|", 0) == 0; ++j) t.m_lines.push_back(lines[j]);
    tables[lines[i].substr(k_marker.size(), end - k_marker.size())] = t;
  }
  return tables;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(doc_tables, in_the_doc_are_the_code_tables) {
  std::vector<std::string> lines = doc_lines();
  ASSERT_FALSE(lines.empty()) << k_doc;
  const std::map<std::string, doc_table> in_doc = doc_tables(lines);
  const std::vector<format_table> in_code = code_tables();
  const bool update = std::getenv("KOPT_UPDATE_DOCS") != nullptr;
  std::set<std::string> titles;
  // Replaced from the last table up, so that earlier line numbers stay valid.
  std::map<std::size_t, std::pair<std::size_t, std::vector<std::string>>, std::greater<>> edits;
  for (const format_table& table : in_code) {
    titles.insert(table.m_title);
    const std::vector<std::string> expected = render(table);
    const auto it = in_doc.find(table.m_title);
    if (it == in_doc.end()) {
      ADD_FAILURE() << k_doc << " has no table for " << table.m_title << "; add\n"
                    << k_marker << table.m_title << " -->\n"
                    << joined(expected);
      continue;
    }
    if (it->second.m_lines == expected) continue;
    if (update) {
      edits[it->second.m_first] = {it->second.m_lines.size(), expected};
    } else {
      ADD_FAILURE() << k_doc << ": the table of " << table.m_title << " (line " << it->second.m_first + 1
                    << ") differs from the code; expected\n"
                    << joined(expected) << "(KOPT_UPDATE_DOCS=1 rewrites it)";
    }
  }
  for (const auto& [title, table] : in_doc) {
    EXPECT_TRUE(titles.count(title) != 0) << k_doc << " line " << table.m_first << ": a table for " << title
                                          << ", which no type declares";
  }
  if (!edits.empty()) {
    for (const auto& [first, edit] : edits) {
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(first),
                  lines.begin() + static_cast<std::ptrdiff_t>(first + edit.first));
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(first), edit.second.begin(), edit.second.end());
    }
    std::ofstream(k_doc) << joined(lines);
  }
}

// ---- to_json writes exactly the declared fields -----------------------------------

std::set<std::string> keys_of(std::initializer_list<json> objects) {
  std::set<std::string> keys;
  for (const json& o : objects) {
    for (const auto& item : o.items()) keys.insert(item.key());
  }
  return keys;
}

std::set<std::string> declared(std::initializer_list<std::string> titles) {
  std::map<std::string, format_table> by_title;
  for (const format_table& t : code_tables()) by_title[t.m_title] = t;
  std::set<std::string> names;
  for (const std::string& title : titles) {
    const auto it = by_title.find(title);
    EXPECT_NE(it, by_title.end()) << title;
    if (it == by_title.end()) continue;
    for (const field_doc& f : it->second.m_fields) names.insert(f.m_name);
  }
  return names;
}

TEST(doc_tables, sweep_files_write_their_declared_fields) {
  point_result r;
  r.m_times.push_back({"n=1", 10.0, 0.01});
  const json doc = to_json(r);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.sweep_point"}));
  EXPECT_EQ(keys_of({doc["build"], doc["correctness"], doc["bench"]}),
            declared({"kernelopt.sweep_point: build, correctness, bench"}));
  selection s;
  s.m_shapes.push_back({"n=1", "v1_p0", 10.0, {{"v1_p0", 10.0, 1.0}}});
  s.m_failed.push_back({"v1_p1", "build failed"});
  const json sel = to_json(s);
  EXPECT_EQ(keys_of({sel}), declared({"kernelopt.selection"}));
  EXPECT_EQ(keys_of({sel["shapes"][0]}), declared({"kernelopt.selection: shapes[]"}));
}

TEST(doc_tables, ceilings_write_their_declared_fields) {
  ceilings_file c;
  c.m_measurement.emplace();
  ceiling known;
  known.m_name = "copy_bandwidth";
  known.m_value = 1e12;
  known.m_unit = "B/s";
  known.m_method = "copy";
  known.m_details = json::object();
  ceiling unknown;
  unknown.m_name = "fp32_fma";
  unknown.m_unit = "FLOP/s";
  c.m_ceilings = {known, unknown};
  const json doc = to_json(c);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.ceilings"}));
  EXPECT_EQ(keys_of({doc["ceilings"]["copy_bandwidth"], doc["ceilings"]["fp32_fma"]}),
            declared({"kernelopt.ceilings: ceilings.<name>"}));
}

TEST(doc_tables, bench_result_writes_its_declared_fields) {
  bench_result r;
  bench_header& h = r.m_kopt.emplace();
  h.m_timing.emplace();
  h.m_engine_timing = {1, 2, "cuda_event", 500.0, 1.0, "cupti"};
  h.m_overhead = overhead_summary{{1.0, 2.0}, 1, {{"k/v1/n=1", {1.0, std::nullopt}}}};
  bench_row timed;
  timed.m_rounds.emplace();
  timed.m_phases = shape_phases{0.5, 0.25, 1.5, 2.0};
  output_check_summary& check = timed.m_output_check.emplace();
  check.m_status = "pass";
  check.m_checked_launches = 4;
  output_check_summary unavailable;
  unavailable.m_status = "unavailable";
  bench_row failed;
  failed.m_error = "failed";
  bench_row profiled;
  profiled.m_profiled = true;
  gbench_run run;
  run.m_label = "label";
  gbench_run failed_run = run;
  failed_run.m_error_message = "error";
  gbench_run skipped_run = run;
  skipped_run.m_skip_message = "skipped";
  gbench_run aggregate = run;
  aggregate.m_run_type = "aggregate";
  r.m_benchmarks = {{run, timed}, {failed_run, failed}, {skipped_run, profiled}, {aggregate, std::nullopt}};
  const json doc = to_json(r);
  EXPECT_EQ(keys_of({doc}), declared({"Benchmark JSON"}));
  EXPECT_EQ(keys_of({doc["kopt"]}), declared({"kernelopt.bench"}));
  EXPECT_EQ(keys_of({doc["kopt"]["timing"]}),
            declared({"timing settings", "kernelopt.bench: timing (the engine's fields, after the settings)"}));
  EXPECT_EQ(keys_of({doc["kopt"]["overhead"]}), declared({"kernelopt.bench: overhead"}));
  EXPECT_EQ(keys_of({doc["kopt"]["overhead"]["per_benchmark"]["k/v1/n=1"]}),
            std::set<std::string>({"harness_ns_per_sample", "cupti_ns_per_launch"}));
  // The header reads back as written (its timing settings made valid first).
  json header = doc["kopt"];
  header["timing"]["min_samples"] = 1;
  header["timing"]["timeout_s"] = 1.0;
  EXPECT_EQ(to_json(bench_header_from_json(json_reader(header, "bench.json", "/kopt"))), header);
  const json& runs = doc["benchmarks"];
  EXPECT_EQ(keys_of({runs[0], runs[1], runs[2], runs[3]}), declared({"kernelopt.bench: benchmarks[]"}));
  EXPECT_EQ(keys_of({runs[0]["kopt"], runs[1]["kopt"], runs[2]["kopt"]}),
            declared({"kernelopt.bench: benchmarks[].kopt", "timing statistics"}));
  bench_row unchecked = failed;
  unchecked.m_output_check = unavailable;
  EXPECT_EQ(keys_of({runs[0]["kopt"]["output_check"], to_json(unchecked)["output_check"]}),
            declared({"kernelopt.bench: benchmarks[].kopt.output_check"}));
  EXPECT_EQ(keys_of({runs[0]["kopt"]["rounds"]}), declared({"kernelopt.bench: benchmarks[].kopt.rounds"}));
  EXPECT_EQ(keys_of({runs[0]["kopt"]["phases_s"]}), declared({"kernelopt.bench: benchmarks[].kopt.phases_s"}));
}

TEST(doc_tables, correctness_result_writes_its_declared_fields) {
  correctness_result r;
  r.m_note = "note";
  trial_record t;
  output_result o;
  o.m_first_mismatch.emplace();
  t.m_outputs = {o};
  t.m_phases.emplace();
  r.m_trials = {t};
  const json doc = to_json(r);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.correctness"}));
  EXPECT_EQ(keys_of({doc["trials"][0]}), declared({"kernelopt.correctness: trials[]"}));
  EXPECT_EQ(keys_of({doc["trials"][0]["phases_s"]}), declared({"kernelopt.correctness: trials[].phases_s"}));
  EXPECT_EQ(keys_of({doc["trials"][0]["outputs"][0]}), declared({"kernelopt.correctness: trials[].outputs[]"}));
  EXPECT_EQ(keys_of({doc["trials"][0]["outputs"][0]["first_mismatch"]}),
            declared({"kernelopt.correctness: trials[].outputs[].first_mismatch"}));
}

TEST(doc_tables, record_writes_its_declared_fields) {
  record r;
  r.m_failure = run_failure{"benchmark", "signal 11"};
  r.m_dispatch = dispatch_info{"2026-11-24T15:00:00Z", {{"n=1", "v1_p0", {"B=1"}}}};
  r.m_inputs = measured_inputs{{{"x", "in", "f32", {"n"}, "uniform(-1,1)"}}, {"n"},
                               reference_inputs{"ref", "host", "f64", source_hash{}}};
  shape_timing timed;
  timed.m_shape = shape::parse("n=1");
  shape_timing failed;
  failed.m_shape = shape::parse("n=2");
  failed.m_error = "failed";
  r.m_timing.m_shapes = {timed, failed};
  const json doc = to_json(r);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.record"}));
  EXPECT_EQ(keys_of({doc["dispatch"]}), declared({"kernelopt.record: dispatch"}));
  EXPECT_EQ(keys_of({doc["inputs"]}), declared({"kernelopt.record: inputs"}));
  EXPECT_EQ(keys_of({doc["inputs"]["args"][0]}), declared({"kernelopt.manifest: args[]"}));
  EXPECT_EQ(keys_of({doc["inputs"]["reference"]}), declared({"kernelopt.record: inputs.reference"}));
  EXPECT_EQ(keys_of({doc["timing"]}), declared({"kernelopt.record: timing"}));
  EXPECT_EQ(keys_of({doc["timing"]["shapes"][0], doc["timing"]["shapes"][1]}),
            declared({"kernelopt.record: timing.shapes[]", "timing statistics"}));
  EXPECT_EQ(keys_of({doc["timing_settings"]}), declared({"timing settings"}));
  EXPECT_EQ(keys_of({doc["gate"]}), declared({"kernelopt.record: gate"}));
}

TEST(doc_tables, record_ablation_writes_its_declared_fields) {
  record r;
  ablation_result a;
  ablation_method m;
  m.m_shapes = {ablation_shape{}};
  a.m_methods = {m};
  r.m_ablation = a;
  r.m_dispatch = dispatch_info{};  // a family variant's key: every declared key present
  r.m_inputs = measured_inputs{};  // absent only in records made before kopt kept them
  const json doc = to_json(r);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.record"}));
  EXPECT_EQ(keys_of({doc["ablation"]}), declared({"kernelopt.record: ablation"}));
  EXPECT_EQ(keys_of({doc["ablation"]["methods"][0]}), declared({"kernelopt.record: ablation.methods[]"}));
  EXPECT_EQ(keys_of({doc["ablation"]["methods"][0]["shapes"][0]}),
            declared({"kernelopt.record: ablation.methods[].shapes[]"}));
}

TEST(doc_tables, manifest_writes_its_declared_fields) {
  manifest m;
  m.m_path = "/b/kernelopt/k/manifest.json";
  m.m_args = {{"x", "in", "f32", {"n"}}};
  impl_decl reference{"reference", "ref", {}, std::nullopt, "host", "f64"};
  m.m_reference = reference;
  variant_decl v;
  v.m_static = static_check{};
  v.m_build_context = build_context{};
  family_decl family;
  family.m_points.push_back({"v_p0", {"B=1"}, "k_kopt_v_p0", "libkopt_k_v_p0.so"});
  v.m_family = family;
  v.m_switches = {method_switch{"cache_blocking", "KOPT_BLOCKED", "v__no_cache_blocking", "k_kopt_v__no_cache_blocking"}};
  m.m_variants = {v};
  m.m_baselines = {impl_decl{"vendor", "vendor", {}, std::nullopt}};
  m.m_test_timeout_s = 600;
  m.m_max_iterations = 5;
  const json doc = to_json(m);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.manifest"}));
  EXPECT_EQ(keys_of({doc["args"][0]}), declared({"kernelopt.manifest: args[]"}));
  EXPECT_EQ(keys_of({doc["reference"], doc["variants"][0], doc["baselines"][0]}),
            declared({"kernelopt.manifest: reference, variants[], baselines[]"}));
  EXPECT_EQ(keys_of({doc["variants"][0]["static"]}), declared({"kernelopt.manifest: variants[].static"}));
  EXPECT_EQ(keys_of({doc["variants"][0]["family"]}), declared({"kernelopt.manifest: variants[].family"}));
  EXPECT_EQ(keys_of({doc["variants"][0]["family"]["points"][0]}),
            declared({"kernelopt.manifest: variants[].family.points[]"}));
  EXPECT_EQ(keys_of({doc["variants"][0]["switches"][0]}), declared({"kernelopt.manifest: variants[].switches[]"}));
  EXPECT_EQ(keys_of({doc["executables"]}), declared({"kernelopt.manifest: executables"}));
  EXPECT_EQ(keys_of({doc["tools"]}), declared({"kernelopt.manifest: tools"}));
}

// The manifests the build wrote (cmake/kernelopt/Generate.cmake, which
// cannot use the C++ type) declare nothing the tables do not, and read
// back through the type to the same document.
TEST(doc_tables, generated_manifests_are_the_type) {
  const std::filesystem::path examples = std::filesystem::path(KOPT_BINARY_DIR) / "example_kernels";
  int seen = 0;
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(examples, error);
       it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    if (it->path().filename() != "manifest.json" || it->path().parent_path().parent_path().filename() != "kernelopt") {
      continue;
    }
    ++seen;
    SCOPED_TRACE(it->path().string());
    const json doc = read_json_file(it->path());
    std::set<std::string> impl_keys;
    for (const char* list : {"variants", "baselines"}) {
      for (const json& impl : doc[list]) {
        for (const auto& item : impl.items()) impl_keys.insert(item.key());
      }
    }
    for (const auto& item : doc["reference"].items()) impl_keys.insert(item.key());
    const std::set<std::string> impl_declared = declared({"kernelopt.manifest: reference, variants[], baselines[]"});
    EXPECT_TRUE(std::includes(impl_declared.begin(), impl_declared.end(), impl_keys.begin(), impl_keys.end()));
    EXPECT_EQ(keys_of({doc}), declared({"kernelopt.manifest"}));
    const manifest m = read_manifest(it->path());
    EXPECT_EQ(nlohmann::json::parse(to_json(m).dump()), nlohmann::json::parse(doc.dump()));
  }
  EXPECT_GT(seen, 0) << "no manifest under " << examples;
}

// framework/specs: every file read through the type and written back is
// the file (so the type holds every field), with only declared fields.
TEST(doc_tables, spec_files_are_the_type) {
  int seen = 0;
  std::set<std::string> value_keys;  // over every file: each declared field is used somewhere
  for (const auto& entry : std::filesystem::directory_iterator(std::string(KOPT_SOURCE_DIR) + "/framework/specs")) {
    if (entry.path().extension() != ".json") continue;
    ++seen;
    SCOPED_TRACE(entry.path().string());
    const json doc = read_json_file(entry.path());
    const spec_file spec = read_spec(entry.path());
    EXPECT_EQ(nlohmann::json::parse(to_json(spec).dump()), nlohmann::json::parse(doc.dump()));
    EXPECT_EQ(keys_of({doc}), declared({"kernelopt.spec"}));
    for (const auto& item : doc["values"].items()) {
      for (const auto& field : item.value().items()) value_keys.insert(field.key());
    }
  }
  EXPECT_GT(seen, 0);
  EXPECT_EQ(value_keys, declared({"kernelopt.spec: values.<name>"}));
}

TEST(doc_tables, profile_writes_its_declared_fields) {
  profile::profile_document d;
  d.m_kernel = "k";
  profile::profile_run& run = d.m_run.emplace();
  profile::profiled_benchmark ok;
  ok.m_status = "ok";
  ok.m_kernels.emplace_back().m_top_stalls.push_back({"long_scoreboard", 2.5});
  ok.m_kernels.back().m_occupancy_limit_blocks = {{"registers", 8}};
  ok.m_dram_bytes_over_model = 1.5;
  ok.m_roofline_unavailable = "no roof";
  profile::profiled_benchmark with_point = ok;
  with_point.m_roofline.emplace().m_bound = "memory";
  with_point.m_compute_why = "f32 inputs";
  profile::profiled_benchmark failed;
  failed.m_error = "crashed";
  run.m_benchmarks = {ok, failed, with_point};
  run.m_impls = {{"v1", profile::impl_profile{"memory-bound", {{"n=1", 0.5, "memory"}}}}};
  run.m_impl = "v1";
  run.m_tool = {"ncu", "2025.3"};
  run.m_thresholds = profile::thresholds_in_use();
  run.m_ceilings = {"ceilings.json", "framework/specs/h100_sxm5.json", "no spec file matched"};
  const json doc = profile::to_json(d);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.profile"}));
  EXPECT_EQ(keys_of({doc["tool"]}), declared({"kernelopt.profile: tool"}));
  EXPECT_EQ(keys_of({doc["benchmarks"][0]["kernels"][0]}), declared({"kernelopt.profile: benchmarks[].kernels[]"}));
  EXPECT_EQ(keys_of({doc["benchmarks"][0]["kernels"][0]["launch"]}),
            declared({"kernelopt.profile: benchmarks[].kernels[].launch"}));
  EXPECT_EQ(keys_of({doc["ceilings"]}), declared({"kernelopt.profile: ceilings"}));
  std::set<std::string> thresholds = keys_of({doc["thresholds"]});
  ASSERT_EQ(thresholds.count("source"), 1u);
  EXPECT_EQ(thresholds.size(), 5u);  // source and the four named in the table's <name> row
  EXPECT_EQ(keys_of({doc["benchmarks"][0], doc["benchmarks"][1]}), declared({"kernelopt.profile: benchmarks[]"}));
  EXPECT_EQ(keys_of({doc["impls"]["v1"]}), declared({"kernelopt.profile: impls.<name>"}));
  EXPECT_EQ(keys_of({doc["benchmarks"][2]["roofline"]}), declared({"kernelopt.profile: benchmarks[].roofline"}));
  EXPECT_EQ(keys_of({doc["benchmarks"][2]["roofline"]["compute_ceiling"], doc["benchmarks"][2]["roofline"]["bandwidth_ceiling"]}),
            declared({"kernelopt.profile: benchmarks[].roofline.compute_ceiling, bandwidth_ceiling"}));
  EXPECT_EQ(keys_of({doc["roofline"][0], doc["impls"]["v1"]["roofline"][0]}),
            declared({"kernelopt.profile: roofline[], impls.<name>.roofline[]"}));
  EXPECT_EQ(profile::to_json(profile::profile_document_from_json(json_reader(doc, "profile.json"))), doc);
}

TEST(doc_tables, compare_writes_its_declared_fields) {
  compare_document d;
  verdict_row row;
  row.m_noise = 0.01;
  row.m_threshold = 0.02;
  verdict_row geomean = row;  // schema 2: no repetitions, no p on the summary row (null)
  geomean.m_base_repetitions = 0;
  geomean.m_new_repetitions = 0;
  row.m_base_repetitions = 9;
  row.m_new_repetitions = 10;
  row.m_p_value = 0.01;
  d.m_result.m_rows = {row};
  d.m_result.m_geomean = geomean;
  const json doc = to_json(d);
  EXPECT_EQ(doc["schema_version"], 2);
  EXPECT_TRUE(doc["geomean"]["base_repetitions"].is_null());
  EXPECT_TRUE(doc["geomean"]["p_value"].is_null());
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.compare"}));
  EXPECT_EQ(keys_of({doc["rows"][0], doc["geomean"]}), declared({"kernelopt.compare: rows[]"}));
  const compare_document back = compare_document_from_json(json_reader(doc, "compare.json"));
  EXPECT_EQ(to_json(back), doc);
}

TEST(doc_tables, experience_entry_writes_its_declared_fields) {
  experience_entry e;
  e.m_kernel = "softmax";
  e.m_variant = "v1";
  e.m_parent = "v0";
  e.m_methods = {"warp_shuffle"};
  e.m_speedup_vs_parent = 1.8;
  e.m_date = "2026-01-01T00:00:00Z";
  e.m_source = {"repo", "softmax/v1.json", "hash"};
  e.m_id = entry_id(e);
  const json doc = to_json(e);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.experience"}));
  EXPECT_EQ(keys_of({doc["source"]}), declared({"kernelopt.experience: source"}));
  EXPECT_EQ(to_json(experience_from_json(doc, "entry.json")), doc);
}

TEST(doc_tables, env_writes_its_declared_fields) {
  env_file env;
  env.m_devices.emplace_back();
  env.m_reasons["/driver_version"] = "no driver";
  const json doc = to_json(env);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.env"}));
  EXPECT_EQ(keys_of({doc["devices"][0]}), declared({"kernelopt.env: devices[]"}));
  EXPECT_EQ(to_json(env_from_json(json_reader(doc, "env.json"))), doc);
}

TEST(doc_tables, gpu_writes_its_declared_fields) {
  const gpu_info gpu{0, "NVIDIA H100 80GB HBM3", "GPU-0", "0000:1B:00.0", "id:0,slots:1"};
  EXPECT_EQ(keys_of({to_json(gpu)}), declared({"gpu (correctness result, kopt.gpu, record timing.gpu)"}));
  EXPECT_EQ(keys_of({to_json(gpu_claim_info{"shared", "/tmp/l", 0, 1})}),
            declared({"claim (correctness result, kopt.claim)"}));
}

TEST(doc_tables, clocks_write_their_declared_fields) {
  second_clock measured;
  measured.m_source = "cupti";
  measured.m_available = true;
  measured.m_kernels.emplace_back();
  EXPECT_EQ(keys_of({to_json(measured)}),
            declared({"second_clock (kopt.second_clock, record timing.shapes[].second_clock)"}));
  EXPECT_EQ(keys_of({to_json(measured)["kernels"][0]}), declared({"second_clock.kernels[]"}));
  EXPECT_EQ(keys_of({to_json(clock_window{})}), declared({"clock (kopt.clock, record timing.shapes[].clock)"}));
}

TEST(doc_tables, static_result_writes_its_declared_fields) {
  static_result r;
  r.m_status = "fail";
  r.m_reason = "a claim";
  static_findings& f = r.m_findings.emplace();
  f.m_sources = std::vector<std::string>{};
  static_function& fn = f.m_functions.emplace_back();
  fn.m_own = true;
  fn.m_defined_in = "a.cu";
  fn.m_defined_by = "line info";
  static_claim found;
  found.m_status = "found";
  found.m_elsewhere = std::vector<static_site>{};
  found.m_archs_without = {"sm_80"};
  static_claim none;
  none.m_status = "no signature";
  f.m_methods = {found, none};
  f.m_limits.emplace_back();
  const json doc = to_json(r);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.static"}));
  EXPECT_EQ(keys_of({doc["functions"][0]}), declared({"kernelopt.static: functions[]"}));
  EXPECT_EQ(keys_of({doc["methods"][0], doc["methods"][1]}),
            declared({"kernelopt.static: methods[], sass_signatures[]"}));
  EXPECT_EQ(keys_of({doc["limits"][0]}), declared({"kernelopt.static: limits[]"}));
  EXPECT_EQ(to_json(static_result_from_json(json_reader(doc, "static.json"))), doc);
}

TEST(doc_tables, perf_baseline_writes_its_declared_fields) {
  perf_baseline b;
  b.m_runs = 2;
  baseline_shape shape;
  shape.m_shape = "n=1";
  shape.m_median_ns = 100;
  shape.m_run_medians_ns = {99, 101};
  shape.m_within_noise = 0.01;
  b.m_shapes = {shape};
  b.m_run_geomeans_ns = {99, 101};
  const json doc = to_json(b);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.perf_baseline"}));
  EXPECT_EQ(keys_of({doc["shapes"][0]}), declared({"kernelopt.perf_baseline: shapes[]"}));
  EXPECT_EQ(keys_of({doc["geomean"]}), declared({"kernelopt.perf_baseline: geomean"}));
  EXPECT_EQ(to_json(perf_baseline_from_json(doc, "baseline.json")), doc);
}

}  // namespace
}  // namespace kopt
