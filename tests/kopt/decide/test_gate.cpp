// The gate's rules, one by one, on variations of the golden campaign.
#include <gtest/gtest.h>

#include "core/json_io.hpp"
#include "formats/clocks.hpp"
#include "kopt/decide/gate.hpp"
#include "kopt/records/record.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(gate_rules, hypothesis_needs_a_number_or_a_direction_word) {
  EXPECT_TRUE(hypothesis_states_movement("Tile A and B: 16x fewer DRAM reads, expect ~5x"));
  EXPECT_TRUE(hypothesis_states_movement("expect 30% less time"));
  EXPECT_TRUE(hypothesis_states_movement("Fewer barriers"));
  EXPECT_TRUE(hypothesis_states_movement("halves the shared-memory traffic"));
  EXPECT_TRUE(hypothesis_states_movement("2x"));
  EXPECT_FALSE(hypothesis_states_movement("unroll the reduction loop"));
  EXPECT_FALSE(hypothesis_states_movement("use fp16 like v1"));  // digits inside names are no number
  EXPECT_FALSE(hypothesis_states_movement("try sm_90 features"));
  EXPECT_FALSE(hypothesis_states_movement(""));
  EXPECT_FALSE(hypothesis_states_movement("cutlass-style tiling"));  // "cut" only as a whole word
}

class gate_test : public ::testing::Test {
 protected:
  run_result gate(const std::string& variant) {
    return run_kopt({"gate", "--manifest", c.manifest(), "--variant", variant});
  }
  void patch_json(const std::string& file, const std::function<void(json&)>& change) {
    json doc = read_json_file(c.path(file));
    change(doc);
    write_text(c.path(file), doc.dump(2));
  }
  scratch_case c;
};

TEST_F(gate_test, changed_source_is_rejected) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  EXPECT_EQ(gate("v4").m_code, 0);
  write_text(c.path("src/v4_warp_per_row.cpp"), "// edited after the record\n");
  const run_result r = gate("v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "FAIL  source       sources changed since the record")) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "note: the record says ACCEPT")) << r.m_out;
  fs::remove(c.path("src/v4_warp_per_row.cpp"));
  EXPECT_TRUE(contains(gate("v4").m_out, "cannot hash the current sources")) << gate("v4").m_out;
}

// The hash covers the headers a variant includes and its compile options:
// an edited shared header, or other options, make its record stale, naming
// what changed. A record made before the build scope is checked the way it
// was made (over its SOURCES alone).
TEST_F(gate_test, an_edited_included_header_or_compile_options_make_the_record_stale) {
  write_text(c.path("src/shared.hpp"), "#pragma once\n#include \"deeper.hpp\"\n");
  write_text(c.path("src/deeper.hpp"), "// one level down\n");
  write_text(c.path("src/v0_three_pass.cpp"),
             "#include \"shared.hpp\"\n#include <vector>\n" + read_text(c.path("src/v0_three_pass.cpp")));
  ASSERT_EQ(record_variant(c, "v0", false).m_code, 0);
  const record v0 = read_record(c.path("records/softmax/v0.json"));
  EXPECT_EQ(v0.m_source.m_scope, "build");
  ASSERT_EQ(v0.m_source.m_files.size(), 3u);
  EXPECT_EQ(v0.m_source.m_files[1].m_name, "shared.hpp");
  EXPECT_EQ(v0.m_source.m_files[2].m_name, "deeper.hpp");
  EXPECT_EQ(gate("v0").m_code, 0);

  write_text(c.path("src/deeper.hpp"), "// one level down, edited\n");
  const run_result edited = gate("v0");
  EXPECT_EQ(edited.m_code, 1);
  EXPECT_TRUE(contains(edited.m_out, "FAIL  source       sources changed since the record")) << edited.m_out;
  EXPECT_TRUE(contains(edited.m_out, "deeper.hpp changed")) << edited.m_out;
  write_text(c.path("src/deeper.hpp"), "// one level down\n");
  EXPECT_EQ(gate("v0").m_code, 0);

  patch_json(k_manifest, [](json& doc) { doc["variants"][0]["compile_options"] = json::array({"-O0"}); });
  const run_result options = gate("v0");
  EXPECT_EQ(options.m_code, 1);
  EXPECT_TRUE(contains(options.m_out, "compile options changed")) << options.m_out;
  patch_json(k_manifest, [](json& doc) { doc["variants"][0]["compile_options"] = json::array(); });

  // A record of the sources scope (before headers were hashed).
  patch_json("records/softmax/v0.json", [&](json& doc) {
    doc["source"].erase("scope");
    doc["source"].erase("compile_options");
    doc["source"]["sha256"] = hash_sources({c.path("src/v0_three_pass.cpp").string()}).m_sha256;
    doc["source"]["files"] = json::array({doc["source"]["files"][0]});
  });
  write_text(c.path("src/deeper.hpp"), "// edited again\n");
  const run_result old = gate("v0");
  EXPECT_TRUE(contains(old.m_out, "ok    source       sources match the record")) << old.m_out;
}

// With the manifest's build context (scope "compile"): a header found
// only through an include directory of the build (include_directories(),
// `<...>` too) and the compile definitions of the target, its directory and
// its libraries are in the hash (an audit slowed the best through both and
// an identical copy was accepted at 4x).
TEST_F(gate_test, headers_of_the_build_include_directories_and_definitions_make_the_record_stale) {
  write_text(c.path("inc/knob.hpp"), "constexpr int k_repeat = 1;\n");
  write_text(c.path("src/v0_three_pass.cpp"), "#include <knob.hpp>\n" + read_text(c.path("src/v0_three_pass.cpp")));
  const std::string inc = c.path("inc").string();
  patch_json(k_manifest, [&](json& doc) {
    doc["variants"][0]["build_context"] = {{"compile_definitions", json::array({"KNOB2=1"})},
                                           {"compile_options", json::array()},
                                           {"include_directories", json::array({inc})}};
  });
  ASSERT_EQ(record_variant(c, "v0", false).m_code, 0);
  const record v0 = read_record(c.path("records/softmax/v0.json"));
  EXPECT_EQ(v0.m_source.m_scope, "compile");
  ASSERT_EQ(v0.m_source.m_files.size(), 2u);
  EXPECT_EQ(v0.m_source.m_files[1].m_name, "knob.hpp");
  EXPECT_EQ(gate("v0").m_code, 0);

  write_text(c.path("inc/knob.hpp"), "constexpr int k_repeat = 4;\n");
  const run_result header = gate("v0");
  EXPECT_EQ(header.m_code, 1);
  EXPECT_TRUE(contains(header.m_out, "knob.hpp changed")) << header.m_out;
  write_text(c.path("inc/knob.hpp"), "constexpr int k_repeat = 1;\n");
  EXPECT_EQ(gate("v0").m_code, 0);

  patch_json(k_manifest, [](json& doc) {
    doc["variants"][0]["build_context"]["compile_definitions"] = json::array({"KNOB2=4"});
  });
  const run_result defined = gate("v0");
  EXPECT_EQ(defined.m_code, 1);
  EXPECT_TRUE(contains(defined.m_out, "compile definitions changed")) << defined.m_out;
  patch_json(k_manifest, [](json& doc) {
    doc["variants"][0]["build_context"]["compile_definitions"] = json::array({"KNOB2=1"});
    doc["variants"][0]["build_context"]["compile_options"] = json::array({"-O0"});
  });
  EXPECT_TRUE(contains(gate("v0").m_out, "the options of its target, directory or libraries changed")) << gate("v0").m_out;
  // A manifest without the context (an older KernelOpt) cannot check it.
  patch_json(k_manifest, [](json& doc) { doc["variants"][0].erase("build_context"); });
  EXPECT_TRUE(contains(gate("v0").m_out, "the manifest has no build context for v0")) << gate("v0").m_out;
}

TEST_F(gate_test, masked_parent_and_best_so_far) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  ASSERT_EQ(run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v1", "--reason",
                      "timed on a throttled GPU"})
                .m_code,
            0);
  const run_result r = gate("v4");
  EXPECT_EQ(r.m_code, 1);
  // The masked parent is shown, not held against v4 (lineage is not a veto).
  EXPECT_TRUE(contains(r.m_out, "ok    parent       lineage: v1 masked (timed on a throttled GPU); judged on its own evidence"))
      << r.m_out;
  // Best-so-far falls back to v0, which v4's bench file did not time.
  EXPECT_TRUE(contains(r.m_out, "best-so-far v0 was not timed in the same benchmark file")) << r.m_out;
  const run_result masked = gate("v1");
  EXPECT_TRUE(contains(masked.m_out, "FAIL  masked       masked: timed on a throttled GPU")) << masked.m_out;
}

TEST_F(gate_test, loop_order_and_missing_parent) {
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  const run_result r = record_variant(c, "v2");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(
      contains(r.m_out, "v1 has no record, but v2 comes after in declaration order: record them first"))
      << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "parent v1 has no record")) << r.m_out;
}

TEST_F(gate_test, settings_changed_since_the_parent) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  patch_json(k_manifest, [](json& m) { m["seeds"] = {1, 2}; });
  const run_result r = gate("v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "seeds differ from the manifest now")) << r.m_out;
}

// The manifest's tolerance keys in another order (string(JSON) sorts them;
// older manifests kept the declaration order): the same settings.
TEST_F(gate_test, tolerance_keys_in_another_order_are_the_same_settings) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  patch_json(k_manifest, [](json& m) {
    json reversed = json::object();
    const json& t = m["tolerance"];
    ASSERT_TRUE(t.is_object() && t.size() > 1) << t.dump();
    for (auto it = t.rbegin(); it != t.rend(); ++it) reversed[it.key()] = it.value();
    m["tolerance"] = reversed;
  });
  const run_result r = gate("v4");
  EXPECT_FALSE(contains(r.m_out, "tolerance differ")) << r.m_out;
  const run_result report = run_kopt({"report", "--manifest", c.manifest(), "--out-dir", c.path("out").string()});
  ASSERT_EQ(report.m_code, 0) << report.m_err;
  EXPECT_FALSE(contains(read_text(c.path("out/report.md")), "(stale)"));
}

// CMake writes `max_rel_l2: null`, a hand-written manifest (the golden
// records were made from one) leaves it out: the same tolerance; a real
// bound is a different one.
TEST_F(gate_test, tolerance_max_rel_l2_null_or_absent_are_the_same_settings) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  patch_json(k_manifest, [](json& m) {
    ASSERT_FALSE(m["tolerance"].contains("max_rel_l2")) << m["tolerance"].dump();
    m["tolerance"]["max_rel_l2"] = nullptr;
  });
  EXPECT_FALSE(contains(gate("v4").m_out, "tolerance differ"));
  patch_json(k_manifest, [](json& m) { m["tolerance"]["max_rel_l2"] = 1e-3; });
  const run_result r = gate("v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "tolerance differ")) << r.m_out;
}

TEST_F(gate_test, timing_settings_differ_from_parent) {
  for (const std::string v : {"v0", "v1", "v2", "v3"})
    ASSERT_EQ(record_variant(c, v).m_code, v == "v2" || v == "v3" ? 1 : 0);
  patch_json("bench/bench.v4.json", [](json& b) { b["kopt"]["timing"]["max_noise"] = 0.01; });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(
      r.m_out,
      "timing settings differ from the manifest now; timing settings differ from parent v1's record"))
      << r.m_out;
}

TEST_F(gate_test, one_shape_slower_by_more_than_three_percent) {
  for (const std::string v : {"v0", "v1", "v2", "v3"}) (void)record_variant(c, v);
  patch_json("bench/bench.v4.json", [](json& b) {
    b["benchmarks"][0]["kopt"]["median_ns"] = 30000.0;   // rows=4096: 1.46x faster
    b["benchmarks"][1]["kopt"]["median_ns"] = 180000.0;  // rows=8192: 4.5% slower than v1
  });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "ok    speedup")) << r.m_out;
  EXPECT_TRUE(contains(
      r.m_out, "FAIL  per_shape    slower than best-so-far v1 by more than 3%: rows=8192,cols=8192 +4.5%"))
      << r.m_out;
}

TEST_F(gate_test, required_gain_grows_with_noise) {
  for (const std::string v : {"v0", "v1", "v2", "v3"}) (void)record_variant(c, v);
  patch_json("bench/bench.v4.json", [](json& b) {
    b["benchmarks"][0]["kopt"]["noise"] = 0.08;  // 2 x hypot(0.08, 0.003) = 16% > the 15% gain
  });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "<= required +16.0% (max(2%, 2 x noise 8.0%))")) << r.m_out;
}

TEST_F(gate_test, missing_hypothesis_and_extra_root) {
  patch_json(k_manifest, [](json& m) {
    m["variants"][1]["hypothesis"] = nullptr;
    m["variants"][2]["parent"] = nullptr;
  });
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  const run_result v1 = record_variant(c, "v1");
  EXPECT_EQ(v1.m_code, 1);
  EXPECT_TRUE(contains(v1.m_out, "no hypothesis: say what should move and by how much")) << v1.m_out;
  const run_result v2 = record_variant(c, "v2");
  EXPECT_TRUE(contains(v2.m_out, "no parent: only the first variant (v0) may have none")) << v2.m_out;
}

TEST_F(gate_test, roofline_gaps_below_fifteen_percent_meet_the_target) {
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  profile::profile_document doc;  // `kopt profile`'s document of one implementation
  doc.m_kernel = "softmax";
  doc.m_status = "ok";
  profile::profile_run& run = doc.m_run.emplace();
  run.m_impl = "v1";
  run.m_impls = {{"v1", profile::impl_profile{"memory-bound",
                                              {{"rows=4096,cols=4096", 0.12, "memory"},
                                               {"rows=8192,cols=8192", 0.10, "memory"}}}}};
  write_text(c.path("profile.v1.json"), profile::to_json(doc).dump());
  const run_result r = run_kopt(
      {"record", "--manifest", c.manifest(), "--variant", "v1", "--correctness",
       c.path("results/correct.v1.json").string(), "--bench", c.path("bench/bench.v1.json").string(),
       "--ceilings", c.path("ceilings.json").string(), "--profile", c.path("profile.v1.json").string()});
  EXPECT_EQ(r.m_code, 0);
  EXPECT_TRUE(contains(r.m_out, "notice: target met: every roofline gap is below 15% (best: v1)")) << r.m_out;
  const record v1 = read_record(c.record("v1"));  // embedded as given
  ASSERT_TRUE(v1.m_profile.m_document.has_value());
  EXPECT_EQ(profile::to_json(*v1.m_profile.m_document), profile::to_json(doc));
  // Not a kernelopt.profile document: an input error naming the file and field.
  write_text(c.path("profile.v2.json"), R"({"roofline": [{"shape": "rows=4096,cols=4096", "gap": 0.12}]})");
  const run_result bad = run_kopt(
      {"record", "--manifest", c.manifest(), "--variant", "v2", "--correctness",
       c.path("results/correct.v2.json").string(), "--bench", c.path("bench/bench.v2.json").string(),
       "--profile", c.path("profile.v2.json").string()});
  EXPECT_NE(bad.m_code, 0);
  EXPECT_TRUE(contains(bad.m_err, "profile.v2.json: /kind: missing")) << bad.m_err;
}

TEST_F(gate_test, malformed_records_are_input_errors_naming_file_and_path) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const std::string v1 = c.record("v1").string();
  patch_json("records/softmax/v1.json", [](json& r) { r["timing"]["shapes"][0].erase("median_ns"); });
  const run_result missing = gate("v4");
  EXPECT_EQ(missing.m_code, 2);
  EXPECT_TRUE(contains(missing.m_err, v1 + ": /timing/shapes/0/median_ns: missing")) << missing.m_err;
  patch_json("records/softmax/v1.json", [](json& r) { r["timing"]["shapes"][0]["median_ns"] = 1.0; });
  patch_json("records/softmax/v1.json", [](json& r) { r["source"]["scope"] = "everything"; });
  const run_result scope = gate("v4");
  EXPECT_EQ(scope.m_code, 2);
  EXPECT_TRUE(contains(scope.m_err, v1 + ": /source/scope: is 'everything'; expected \"sources\", \"build\" or \"compile\""))
      << scope.m_err;
  patch_json("records/softmax/v1.json", [](json& r) { r["source"]["scope"] = "compile"; r["source"]["compile_definitions"] = {1}; });
  const run_result definitions = gate("v4");
  EXPECT_EQ(definitions.m_code, 2);
  EXPECT_TRUE(contains(definitions.m_err, v1 + ": /source/compile_definitions/0: expected a string")) << definitions.m_err;
  patch_json("records/softmax/v1.json", [](json& r) { r["schema_version"] = 3; });
  const run_result newer =
      run_kopt({"report", "--manifest", c.manifest(), "--out-dir", c.path("out").string()});
  EXPECT_EQ(newer.m_code, 2);
  EXPECT_TRUE(contains(newer.m_err, v1 + ": /schema_version: 3 is newer than this kopt reads (2)"))
      << newer.m_err;
  patch_json("records/softmax/v1.json", [](json& r) { r["kind"] = "kernelopt.env"; });
  const run_result kind = run_kopt({"compare", v1, c.record("v4").string()});
  EXPECT_EQ(kind.m_code, 2);
  EXPECT_TRUE(contains(kind.m_err, v1 + ": /kind: \"kernelopt.env\" is not what kopt compare reads")) << kind.m_err;
  write_text(c.record("v1"), "{\"kind\": \"kernelopt.record\"");
  const run_result bad = run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v1", "--reason", "x"});
  EXPECT_EQ(bad.m_code, 2);
  EXPECT_TRUE(contains(bad.m_err, v1 + ": invalid JSON at line 1")) << bad.m_err;
}

// Evidence rules (docs/loop.md): records are re-checked where used.
TEST_F(gate_test, a_hand_edited_decision_is_inconsistent_everywhere) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  // v3 was rejected (vague hypothesis, +1%); claim it was accepted.
  patch_json("records/softmax/v3.json", [](json& r) { r["gate"]["decision"] = "ACCEPT"; });
  const run_result r = gate("v4");
  EXPECT_EQ(r.m_code, 0) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "vs best-so-far v1")) << r.m_out;  // v3 never counts
  EXPECT_TRUE(contains(r.m_out, "note: softmax/v3 ACCEPT (inconsistent): inconsistent (decision ACCEPT although a stored check failed"))
      << r.m_out;
  // Editing the checks too: the evidence still says the hypothesis fails.
  patch_json("records/softmax/v3.json", [](json& r) {
    for (json& check : r["gate"]["checks"]) check["ok"] = true;
  });
  const run_result again = gate("v4");
  EXPECT_TRUE(contains(again.m_out, "rule hypothesis is stored as ok but the record's evidence says FAIL")) << again.m_out;
  const run_result report = run_kopt({"report", "--manifest", c.manifest(), "--out-dir", c.path("out").string()});
  ASSERT_EQ(report.m_code, 0) << report.m_err;
  const std::string markdown = read_text(c.path("out/report.md"));
  EXPECT_TRUE(contains(markdown, "ACCEPT (inconsistent)")) << markdown;
  EXPECT_FALSE(contains(markdown, "ACCEPT (inconsistent) (best)")) << markdown;
}

TEST_F(gate_test, a_stale_best_never_counts) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  write_text(c.path("src/v4_warp_per_row.cpp"), "// edited after the record\n");
  const run_result report = run_kopt({"report", "--manifest", c.manifest(), "--out-dir", c.path("out").string()});
  ASSERT_EQ(report.m_code, 0) << report.m_err;
  const std::string markdown = read_text(c.path("out/report.md"));
  EXPECT_TRUE(contains(markdown, "ACCEPT (stale)")) << markdown;
  EXPECT_TRUE(contains(markdown, "sources changed since the record")) << markdown;
  EXPECT_TRUE(contains(markdown, "v1 | ") || contains(markdown, "best")) << markdown;
  const run_result perf = run_kopt({"perf", "--manifest", c.manifest()});
  EXPECT_TRUE(contains(perf.m_out, "note: softmax/v4 ACCEPT (stale)")) << perf.m_out;
  EXPECT_TRUE(contains(perf.m_out, "best is v1")) << perf.m_out;
}

// A stale ACCEPT newer than the best would lower the bar unnoticed: the
// order rule of every later variant fails, naming it, until it is current
// again or masked.
TEST_F(gate_test, a_stale_accept_above_the_best_fails_the_order_rule_of_later_variants) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const std::string v1_source = read_text(c.path("src/v1_online.cpp"));
  write_text(c.path("src/v1_online.cpp"), v1_source + "// reformatted\n");
  const run_result r = gate("v4");
  EXPECT_EQ(r.m_code, 1) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "FAIL  order        accepted v1 (sources changed since the record")) << r.m_out;
  write_text(c.path("src/v1_online.cpp"), v1_source);
  EXPECT_EQ(gate("v4").m_code, 0);
  write_text(c.path("src/v1_online.cpp"), v1_source + "// reformatted\n");
  ASSERT_EQ(run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v1", "--reason", "edited"}).m_code, 0);
  EXPECT_TRUE(contains(gate("v4").m_out, "ok    order")) << gate("v4").m_out;
}

// A quick run times the QUICK_SHAPES only: its ACCEPT says nothing of the
// declared shapes and can never be completed, so it does not count as best.
TEST_F(gate_test, a_quick_accept_does_not_count_as_best) {
  ASSERT_EQ(record_variant(c, "v0", false).m_code, 0);
  patch_json("bench/bench.v1.json", [](json& doc) {
    doc["kopt"]["shape_set"] = "quick";
    json rows = json::array();
    for (json row : doc["benchmarks"]) {
      std::string name = row["name"].get<std::string>();
      if (name.find("rows=8192,cols=8192") != std::string::npos) continue;
      const std::size_t at = name.find("rows=4096,cols=4096");
      if (at != std::string::npos) name.replace(at, 19, "rows=1024,cols=1024");
      row["name"] = name;
      if (row.contains("run_name")) row["run_name"] = name.substr(0, name.find("/iterations"));
      rows.push_back(row);
    }
    doc["benchmarks"] = rows;
  });
  const run_result v1 = record_variant(c, "v1");
  EXPECT_TRUE(contains(v1.m_out, "gate softmax/v1: ACCEPT")) << v1.m_out << v1.m_err;
  EXPECT_TRUE(contains(v1.m_out, "an ACCEPT of a quick run does not count as best")) << v1.m_out << v1.m_err;
  const run_result status = run_kopt({"status", "--manifest", c.manifest()});
  EXPECT_TRUE(contains(status.m_out, "a quick run does not count as best")) << status.m_out;
  EXPECT_TRUE(contains(status.m_out, "best: v0")) << status.m_out;
}

TEST_F(gate_test, a_child_of_a_rejected_parent_is_judged_on_its_evidence) {
  patch_json(k_manifest, [](json& m) { m["variants"][4]["parent"] = "v3"; });
  for (const std::string v : {"v0", "v1", "v2", "v3"}) (void)record_variant(c, v);
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 0) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "ok    parent       lineage: v3 rejected; judged on its own evidence")) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "vs best-so-far v1")) << r.m_out;
}

// A CUPTI second clock that disagrees with the events, as the CUDA engine
// writes it (formats/clocks.hpp): one kernel per stream.
json cupti_disagreeing(double median_ns, double difference, const std::vector<std::int64_t>& streams) {
  second_clock c;
  c.m_source = "cupti";
  c.m_available = true;
  c.m_median_ns = median_ns;
  c.m_agreement = "disagree";
  c.m_difference = difference;
  c.m_bound = 0.02;
  c.m_samples = 16;
  for (const std::int64_t stream : streams) {
    clock_kernel k;
    k.m_name = "k" + std::to_string(stream);
    k.m_stream = stream;
    c.m_kernels.push_back(k);
  }
  return to_json(c);
}

TEST_F(gate_test, work_the_timed_stream_missed_rejects) {
  for (const std::string v : {"v0", "v1", "v2", "v3"}) (void)record_variant(c, v);
  patch_json("bench/bench.v4.json", [](json& b) {
    json& k = b["benchmarks"][0]["kopt"];
    k["flags"] = {"clock_disagreement"};
    k["second_clock"] = cupti_disagreeing(25 * k["median_ns"].get<double>(), 24.0, {7, 13});
  });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "FAIL  clock        the timed stream missed work the CUPTI clock saw: rows=4096,cols=4096: events"))
      << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "kernels on 2 streams")) << r.m_out;
}

TEST_F(gate_test, a_small_clock_disagreement_on_one_stream_is_a_notice) {
  for (const std::string v : {"v0", "v1", "v2", "v3"}) (void)record_variant(c, v);
  patch_json("bench/bench.v4.json", [](json& b) {
    json& k = b["benchmarks"][0]["kopt"];
    k["flags"] = {"clock_disagreement"};
    k["second_clock"] = cupti_disagreeing(1.034 * k["median_ns"].get<double>(), 0.034, {13});
  });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 0) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "notice: benchmark flag clock_disagreement (below the rejecting bound) on rows=4096,cols=4096"))
      << r.m_out;
}

TEST_F(gate_test, the_benchmark_must_have_checked_what_it_timed) {
  for (const std::string v : {"v0", "v1", "v2", "v3"}) (void)record_variant(c, v);
  patch_json("bench/bench.v4.json", [](json& b) {
    json& k = b["benchmarks"][0]["kopt"];
    k = {{"kernel", k["kernel"]}, {"impl", k["impl"]}, {"role", k["role"]}, {"shape", k["shape"]},
         {"error", "output check failed after the timed calls (input set 1): 'y': 16777216 never written"},
         {"output_check", {{"status", "fail"}, {"detail", "output check failed after the timed calls (input set 1)"}}}};
    b["benchmarks"][1]["kopt"].erase("output_check");
  });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out, "FAIL  bench_output rows=4096,cols=4096: fail: output check failed after the timed calls"))
      << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "rows=8192,cols=8192: the benchmark did not check what it timed")) << r.m_out;
}

// Above 25 % noise the comparison decides nothing, however large the ratio
// (an identical copy came out 14.7x at 114 % noise on an oversubscribed
// machine).
TEST_F(gate_test, a_comparison_too_noisy_decides_nothing) {
  for (const std::string v : {"v0", "v1", "v2", "v3"}) (void)record_variant(c, v);
  patch_json("bench/bench.v4.json", [](json& b) {
    b["benchmarks"][0]["kopt"]["noise"] = 0.3;
    b["benchmarks"][0]["real_time"] = b["benchmarks"][0]["real_time"].get<double>() / 10;  // "10x faster"
  });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "FAIL  speedup      too noisy to decide: noise 30.0% > 25.0%")) << r.m_out;
}

TEST_F(gate_test, interleaved_rounds_decide_the_speedup) {
  for (const std::string v : {"v0", "v1", "v2", "v3"}) (void)record_variant(c, v);
  // The medians say v4 is 1.15x faster; the rounds, sampled in turn, say
  // the two ran alike: the rounds win.
  patch_json("bench/bench.v4.json", [](json& b) {
    for (json& entry : b["benchmarks"]) {
      json& k = entry["kopt"];
      std::vector<double> medians;
      for (int i = 0; i < 12; ++i) medians.push_back(40000.0 * (1 + 0.001 * (i % 3)));
      k["rounds"] = {{"order", "abba"}, {"block", 4}, {"count", 12}, {"window", {"v4", "v1", "v0"}}, {"medians_ns", medians}};
    }
  });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "FAIL  speedup      geomean 1.00x vs best-so-far v1")) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "interleaved rounds on 2 of 2 shapes")) << r.m_out;
}

TEST_F(gate_test, malformed_output_checks_and_rounds_name_file_and_field) {
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  const std::string bench = c.path("bench/bench.v1.json").string();
  patch_json("bench/bench.v1.json", [](json& b) { b["benchmarks"][0]["kopt"]["output_check"]["status"] = "maybe"; });
  const run_result status = record_variant(c, "v1");
  EXPECT_EQ(status.m_code, 2);
  EXPECT_TRUE(contains(status.m_err, bench + ": /benchmarks/0/kopt/output_check/status: expected \"pass\", \"fail\" or \"unavailable\""))
      << status.m_err;
  patch_json("bench/bench.v1.json", [](json& b) {
    json& k = b["benchmarks"][0]["kopt"];
    k["output_check"]["status"] = "pass";
    k["rounds"] = {{"order", "abba"}, {"block", 1}, {"count", 2}, {"window", {"v1", "v0"}}, {"medians_ns", {40000.0, 0.0}}};
  });
  const run_result rounds = record_variant(c, "v1");
  EXPECT_EQ(rounds.m_code, 2);
  EXPECT_TRUE(contains(rounds.m_err, bench + ": /benchmarks/0/kopt/rounds/medians_ns/1: a round's median must be > 0"))
      << rounds.m_err;
}

TEST_F(gate_test, gate_without_records_is_an_input_error) {
  const run_result r = gate("v0");
  EXPECT_EQ(r.m_code, 2);
  EXPECT_TRUE(contains(r.m_err, "no record of v0")) << r.m_err;
  const run_result newest = run_kopt({"gate", "--manifest", c.manifest()});
  EXPECT_EQ(newest.m_code, 2);
  EXPECT_TRUE(contains(newest.m_err, "no record of any variant of softmax yet")) << newest.m_err;
}

}  // namespace
}  // namespace kopt::test
