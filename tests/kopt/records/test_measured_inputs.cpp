// What a record was measured with (records/measured_inputs.hpp): ARGS with
// each input's fill, DIMS and the reference. Declaring other inputs or
// another reference makes an accepted record stale, naming what changed,
// and the gate's settings rule compares them with the parent's and the
// best's records; a record made before kopt kept them is not compared on
// them.
#include <gtest/gtest.h>

#include <functional>

#include "core/format.hpp"
#include "core/json_io.hpp"
#include "kopt/records/measured_inputs.hpp"
#include "kopt/records/record_store.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

measured_inputs sample_inputs() {
  measured_inputs in;
  in.m_args = {{"x", "in", "f32", {"rows", "cols"}, "uniform(-1,1)"},
               {"y", "out", "f32", {"rows", "cols"}, std::nullopt}};
  in.m_dims = {"rows", "cols"};
  in.m_reference = reference_inputs{"softmax_reference", "host", "f64", source_hash{"aa11", {{"reference.cpp", "aa11"}}}};
  return in;
}

std::vector<std::string> differences_after(const std::function<void(measured_inputs&)>& edit) {
  const measured_inputs recorded = sample_inputs();
  measured_inputs now = recorded;
  edit(now);
  return input_differences(recorded, now);
}

using names = std::vector<std::string>;

TEST(measured_inputs, differences_are_named_as_the_declaration_names_them) {
  EXPECT_TRUE(differences_after([](measured_inputs&) {}).empty());
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_args[0].m_init = "uniform(0,1e-6)"; }), names{"INIT"});
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_args[0].m_dtype = "bf16"; }), names{"ARGS"});
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_args[1].m_shape = {"cols", "rows"}; }), names{"ARGS"});
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_args[0].m_name = "z"; }), (names{"ARGS", "INIT"}));
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_args.pop_back(); }), (names{"ARGS", "INIT"}));
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_dims = {"cols", "rows"}; }), names{"DIMS"});
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_reference->m_entry = "softmax_ref2"; }), names{"REFERENCE"});
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_reference.reset(); }), names{"REFERENCE"});
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_reference->m_backend = "cuda"; }),
            names{"REFERENCE_BACKEND"});
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_reference->m_precision = "native"; }),
            names{"REFERENCE_PRECISION"});
  EXPECT_EQ(differences_after([](measured_inputs& m) { m.m_reference->m_sources.m_sha256 = "bb22"; }),
            names{"reference sources"});
}

TEST(measured_inputs, read_back_through_the_type) {
  const measured_inputs in = sample_inputs();
  const json doc = to_json(in);
  const measured_inputs back = measured_inputs_from_json(json_reader(doc, "inputs"));
  EXPECT_EQ(back.m_args, in.m_args);
  EXPECT_TRUE(input_differences(in, back).empty());
  EXPECT_EQ(to_json(back), doc);
  measured_inputs without_reference = in;
  without_reference.m_reference.reset();
  EXPECT_TRUE(to_json(without_reference)["reference"].is_null());
}

// On the golden campaign: v0, v1 and v4 accepted (v4 the best), v2 and v3
// rejected, every record made with its inputs.
class inputs_flow : public ::testing::Test {
 protected:
  void patch_json(const fs::path& file, const std::function<void(json&)>& change) {
    json doc = read_json_file(file);
    change(doc);
    write_text(file, doc.dump(2));
  }
  void patch_manifest(const std::function<void(json&)>& change) { patch_json(c.manifest(), change); }
  [[nodiscard]] record_set load() const { return load_records(read_manifest(c.manifest())); }
  [[nodiscard]] run_result status() const { return run_kopt({"status", "--manifest", c.manifest()}); }

  // v4 was the best: now stale with `reason` and counted nowhere.
  void expect_best_stale(const std::string& reason) {
    const manifest m = read_manifest(c.manifest());
    const record_set records = load_records(m);
    const record_status* v4 = records.status(m, "v4");
    ASSERT_NE(v4, nullptr);
    EXPECT_EQ(v4->m_state, record_state::stale);
    EXPECT_FALSE(v4->counts());
    EXPECT_TRUE(contains(join(v4->m_problems, "; "), reason)) << join(v4->m_problems, "; ");
    EXPECT_EQ(records.best(), nullptr) << records.best()->m_variant;
    const run_result s = status();
    EXPECT_TRUE(contains(s.m_out, "note: softmax/v4 ACCEPT (stale): stale (" + reason)) << s.m_out;
  }
  scratch_case c;
};

TEST_F(inputs_flow, records_keep_what_they_were_measured_with) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const record v4 = read_record(c.record("v4"));
  ASSERT_TRUE(v4.m_inputs.has_value());
  ASSERT_EQ(v4.m_inputs->m_args.size(), 2u);
  EXPECT_EQ(v4.m_inputs->m_args[0].m_init, std::optional<std::string>("uniform(-1,1)"));
  EXPECT_FALSE(v4.m_inputs->m_args[1].m_init.has_value());
  EXPECT_EQ(v4.m_inputs->m_dims, (std::vector<std::string>{"rows", "cols"}));
  ASSERT_TRUE(v4.m_inputs->m_reference.has_value());
  EXPECT_EQ(v4.m_inputs->m_reference->m_entry, "softmax_reference");
  EXPECT_EQ(v4.m_inputs->m_reference->m_precision, std::optional<std::string>("f64"));
  EXPECT_EQ(v4.m_inputs->m_reference->m_sources.m_sha256,
            hash_build({c.path("src/reference.cpp").string()}, {}).m_sha256);
  const manifest m = read_manifest(c.manifest());
  const record_set records = load_records(m);
  ASSERT_NE(records.best(), nullptr);
  EXPECT_EQ(records.best()->m_variant, "v4");
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(records.status_at(i).m_state, record_state::current) << i;
}

// The audit's case: easier inputs declared after the records were made.
TEST_F(inputs_flow, a_changed_init_makes_an_accepted_record_stale) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  patch_manifest([](json& m) { m["args"][0]["init"] = "uniform(0,1e-6)"; });
  ASSERT_NO_FATAL_FAILURE(expect_best_stale("INIT differ from the declaration now"));
  const run_result gate = run_kopt({"gate", "--manifest", c.manifest(), "--variant", "v4"});
  EXPECT_EQ(gate.m_code, 1);
  EXPECT_TRUE(contains(gate.m_out, "FAIL  settings     INIT differ from the manifest now")) << gate.m_out;
}

TEST_F(inputs_flow, a_changed_arg_dtype_makes_an_accepted_record_stale) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  patch_manifest([](json& m) { m["args"][0]["dtype"] = "bf16"; });
  ASSERT_NO_FATAL_FAILURE(expect_best_stale("ARGS differ from the declaration now"));
}

TEST_F(inputs_flow, an_edited_reference_makes_an_accepted_record_stale) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  write_text(c.path("src/reference.cpp"), "// edited after the records\n");
  ASSERT_NO_FATAL_FAILURE(expect_best_stale("reference sources differ from the declaration now"));
  patch_manifest([](json& m) {
    m["reference"]["precision"] = "native";
    m["reference"]["entry"] = "softmax_reference2";
  });
  ASSERT_NO_FATAL_FAILURE(expect_best_stale(
      "REFERENCE, REFERENCE_PRECISION, reference sources differ from the declaration now"));
  fs::remove(c.path("src/reference.cpp"));
  ASSERT_NO_FATAL_FAILURE(expect_best_stale("the reference's sources cannot be read now"));
}

// Records made before kopt kept their inputs (the committed example
// records): not compared on them, so they count as they did.
TEST_F(inputs_flow, a_record_without_inputs_stays_current) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  for (const std::string variant : {"v0", "v1", "v2", "v3", "v4"}) {
    patch_json(c.record(variant), [](json& r) {
      ASSERT_TRUE(r.contains("inputs"));
      r.erase("inputs");
    });
  }
  patch_manifest([](json& m) { m["args"][0]["init"] = "uniform(0,1e-6)"; });
  write_text(c.path("src/reference.cpp"), "// edited after the records\n");
  const manifest m = read_manifest(c.manifest());
  const record_set records = load_records(m);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(records.status_at(i).m_state, record_state::current) << join(records.status_at(i).m_problems, "; ");
  }
  ASSERT_NE(records.best(), nullptr);
  EXPECT_EQ(records.best()->m_variant, "v4");
  EXPECT_FALSE(read_record(c.record("v4")).m_inputs.has_value());
  EXPECT_FALSE(contains(status().m_out, "stale")) << status().m_out;
}

// A variant recorded after the inputs changed: its parent's record was
// measured on other inputs (settings fails), and no earlier record counts
// as best (speedup fails). Its own record is current and consistent.
TEST_F(inputs_flow, a_variant_recorded_on_other_inputs_than_its_parent_is_rejected) {
  for (const std::string v : {"v0", "v1", "v2", "v3"}) {
    ASSERT_EQ(record_variant(c, v).m_code, v == "v2" || v == "v3" ? 1 : 0) << v;
  }
  patch_manifest([](json& m) { m["args"][0]["init"] = "uniform(0,1e-6)"; });
  const run_result r = record_variant(c, "v4");
  EXPECT_EQ(r.m_code, 1) << r.m_out << r.m_err;
  EXPECT_TRUE(contains(r.m_out, "FAIL  settings     INIT differ from parent v1's record")) << r.m_out;
  EXPECT_TRUE(contains(r.m_out, "FAIL  speedup      no accepted record before v4 to compare with")) << r.m_out;
  const manifest m = read_manifest(c.manifest());
  const record_set records = load_records(m);
  const record_status* v4 = records.status(m, "v4");
  ASSERT_NE(v4, nullptr);
  EXPECT_EQ(v4->m_state, record_state::current) << join(v4->m_problems, "; ");
  EXPECT_EQ(records.status(m, "v1")->m_state, record_state::stale);
  EXPECT_EQ(records.best(), nullptr);
}

// The settings rule compares the inputs with the parent's and, when it is
// another record, the best's; `kopt gate` re-evaluates a record whose
// inputs differ from both.
TEST_F(inputs_flow, the_settings_rule_compares_inputs_with_the_parent_and_the_best) {
  patch_manifest([](json& m) { m["variants"][4]["parent"] = "v0"; });
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const run_result accepted = run_kopt({"gate", "--manifest", c.manifest(), "--variant", "v4"});
  EXPECT_EQ(accepted.m_code, 0) << accepted.m_out;
  EXPECT_TRUE(contains(accepted.m_out,
                       "ok    settings     shapes, seeds, tolerance, timing settings, inputs and reference as in "
                       "parent v0's record; inputs and reference as in best-so-far v1's record"))
      << accepted.m_out;
  patch_json(c.record("v4"), [](json& r) { r["inputs"]["args"][0]["init"] = "uniform(0,1e-6)"; });
  const run_result r = run_kopt({"gate", "--manifest", c.manifest(), "--variant", "v4"});
  EXPECT_EQ(r.m_code, 1);
  EXPECT_TRUE(contains(r.m_out,
                       "FAIL  settings     INIT differ from the manifest now; INIT differ from parent v0's record; "
                       "INIT differ from best-so-far v1's record"))
      << r.m_out;
}

}  // namespace
}  // namespace kopt::test
