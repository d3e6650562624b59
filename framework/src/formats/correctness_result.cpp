#include "formats/correctness_result.hpp"

#include <cmath>

namespace kopt {
namespace {

const std::vector<field_doc> k_file_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.correctness`"},
    {"kernel", "string", "the kernel"},
    {"variant", "string", "the variant whose trials ran (one process per variant)"},
    {"backend", "string", "`cuda` or `host`"},
    {"device", "string | null", "the device's name; `null` when skipped"},
    {"gpu", "object | null",
     "which GPU ran the trials (the `gpu` table); `null` for the host"},
    {"claim", "object | null", "the shared per-GPU lock the process held (the `claim` table); `null` for the host"},
    {"status", "string", "`pass` (every trial passed), `fail` or `skipped`"},
    {"skip_reason", "string | null", "why it was skipped"},
    {"seeds", "array", "the declared seeds"},
    {"tolerance", "object | null",
     "the kernel's TOLERANCE (the `tolerance` table); `null`: per-dtype defaults"},
    {"trials", "array", "one per shape x seed"},
    {"note", "string", "only when one process ran several variants"},
};

const std::vector<field_doc> k_trial_fields = {
    {"shape", "string", "the shape as declared"},
    {"seed", "integer", "the seed of the inputs"},
    {"status", "string", "`pass` or `fail`"},
    {"error", "string | null", "the run itself failed (a CUDA error after the launch, an exception)"},
    {"modified_inputs", "array", "`in` arguments the variant wrote to (a failure)"},
    {"outputs", "array", "one per output argument"},
    {"phases_s", "object", "where the trial spent its wall time (the `phases_s` table); absent from a test older "
     "than the field"},
};

const std::vector<field_doc> k_phases_fields = {
    {"inputs", "number", "seconds making the inputs for the shape and seed"},
    {"reference", "number", "seconds getting the reference's outputs (staging, upload, run, download)"},
    {"load", "number", "seconds building the guarded images (payload, poison, canaries) and uploading them"},
    {"run", "number", "seconds in the variant's launch and the wait for it"},
    {"check", "number", "seconds downloading and comparing the outputs and checking the inputs and canaries"},
};

const std::vector<field_doc> k_output_fields = {
    {"arg", "string", "the output argument"},
    {"dtype", "string", "its element type"},
    {"elements", "integer", "its element count"},
    {"rtol", "number", "relative tolerance it was checked with"},
    {"atol", "number", "absolute tolerance it was checked with"},
    {"max_abs", "number | null", "largest absolute error"},
    {"max_rel", "number | null", "largest relative error"},
    {"rel_l2", "number | null", "relative L2 error"},
    {"mismatches", "integer", "elements outside the tolerance"},
    {"nonfinite", "integer", "NaN/Inf elements where the reference is finite"},
    {"unwritten", "integer", "elements still holding the poison pattern"},
    {"canary", "string", "`intact`, `overwritten before output` or `overwritten after output`"},
    {"first_mismatch", "object | null", "the first failing element"},
    {"passed", "boolean", "this output's verdict (mismatches, canaries, `max_rel_l2`)"},
};

const std::vector<field_doc> k_mismatch_fields = {
    {"flat", "integer", "flat index"},
    {"index", "array", "index per dimension"},
    {"got", "number | null", "the variant's value (`null`: not finite)"},
    {"expected", "number | null", "the reference's value"},
};

json number_or_null_if_nonfinite(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? json(*v) : json(nullptr);
}

std::optional<double> optional_non_negative(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_non_negative();
}

std::optional<double> optional_number(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_number();
}

std::optional<std::string> optional_string(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_string();
}

json to_json(const output_result& o) {
  return {{"arg", o.m_arg},
          {"dtype", o.m_dtype},
          {"elements", o.m_elements},
          {"rtol", o.m_rtol},
          {"atol", o.m_atol},
          {"max_abs", number_or_null_if_nonfinite(o.m_max_abs)},
          {"max_rel", number_or_null_if_nonfinite(o.m_max_rel)},
          {"rel_l2", number_or_null_if_nonfinite(o.m_rel_l2)},
          {"mismatches", o.m_mismatches},
          {"nonfinite", o.m_nonfinite},
          {"unwritten", o.m_unwritten},
          {"canary", o.m_canary},
          {"first_mismatch", o.m_first_mismatch ? to_json(*o.m_first_mismatch) : json(nullptr)},
          {"passed", o.m_passed}};
}

output_result output_from_json(const json_reader& node) {
  output_result o;
  o.m_arg = node.at("arg").as_string();
  if (node.has("dtype")) o.m_dtype = node.at("dtype").as_string();
  if (node.has("elements")) o.m_elements = node.at("elements").as_non_negative_integer();
  if (node.has("rtol")) o.m_rtol = node.at("rtol").as_non_negative();
  if (node.has("atol")) o.m_atol = node.at("atol").as_non_negative();
  o.m_max_abs = optional_non_negative(node, "max_abs");
  o.m_max_rel = optional_non_negative(node, "max_rel");
  o.m_rel_l2 = optional_non_negative(node, "rel_l2");
  o.m_mismatches = node.at("mismatches").as_non_negative_integer();
  if (node.has("nonfinite")) o.m_nonfinite = node.at("nonfinite").as_non_negative_integer();
  if (node.has("unwritten")) o.m_unwritten = node.at("unwritten").as_non_negative_integer();
  o.m_canary = node.at("canary").as_string();
  if (node.has("first_mismatch")) o.m_first_mismatch = first_mismatch_from_json(node.at("first_mismatch"));
  if (node.has("passed")) o.m_passed = node.at("passed").as_bool();
  return o;
}

json to_json(const trial_phases& p) {
  return {{"inputs", p.m_inputs_s},
          {"reference", p.m_reference_s},
          {"load", p.m_load_s},
          {"run", p.m_run_s},
          {"check", p.m_check_s}};
}

trial_phases phases_from_json(const json_reader& node) {
  trial_phases p;
  p.m_inputs_s = node.at("inputs").as_non_negative();
  p.m_reference_s = node.at("reference").as_non_negative();
  p.m_load_s = node.at("load").as_non_negative();
  p.m_run_s = node.at("run").as_non_negative();
  p.m_check_s = node.at("check").as_non_negative();
  return p;
}

json to_json(const trial_record& t) {
  json outputs = json::array();
  for (const output_result& o : t.m_outputs) outputs.push_back(to_json(o));
  json doc = {{"shape", t.m_shape},
              {"seed", t.m_seed},
              {"status", t.m_status},
              {"error", t.m_error ? json(*t.m_error) : json(nullptr)},
              {"modified_inputs", t.m_modified_inputs},
              {"outputs", outputs}};
  if (t.m_phases) doc["phases_s"] = to_json(*t.m_phases);
  return doc;
}

trial_record trial_from_json(const json_reader& node) {
  trial_record t;
  t.m_shape = node.at("shape").as_string();
  t.m_seed = node.at("seed").as_non_negative_integer();
  t.m_status = node.at("status").as_string();
  if (t.m_status != "pass" && t.m_status != "fail") {
    node.at("status").fail("expected \"pass\" or \"fail\", got \"" + shorten(t.m_status) + "\"");
  }
  t.m_error = optional_string(node, "error");
  if (node.has("modified_inputs")) {
    const json_reader modified = node.at("modified_inputs");
    for (std::size_t i = 0; i < modified.size(); ++i) t.m_modified_inputs.push_back(modified.at(i).as_string());
  }
  const json_reader outputs = node.at("outputs");
  for (std::size_t i = 0; i < outputs.size(); ++i) t.m_outputs.push_back(output_from_json(outputs.at(i)));
  if (node.has("phases_s")) t.m_phases = phases_from_json(node.at("phases_s"));
  return t;
}

}  // namespace

json to_json(const first_mismatch& m) {
  return {{"flat", m.m_flat},
          {"index", m.m_index},
          {"got", number_or_null_if_nonfinite(m.m_got)},
          {"expected", number_or_null_if_nonfinite(m.m_expected)}};
}

first_mismatch first_mismatch_from_json(const json_reader& node) {
  first_mismatch m;
  m.m_flat = node.at("flat").as_non_negative_integer();
  const json_reader index = node.at("index");
  for (std::size_t i = 0; i < index.size(); ++i) m.m_index.push_back(index.at(i).as_integer());
  m.m_got = optional_number(node, "got");
  m.m_expected = optional_number(node, "expected");
  return m;
}

json to_json(const correctness_result& r) {
  json trials = json::array();
  for (const trial_record& t : r.m_trials) trials.push_back(to_json(t));
  json doc = {{"schema_version", k_correctness_schema_version},
              {"kind", k_correctness_kind},
              {"kernel", r.m_kernel},
              {"variant", r.m_variant},
              {"backend", r.m_backend},
              {"device", r.m_device ? json(*r.m_device) : json(nullptr)},
              {"gpu", to_json(r.m_gpu)},
              {"claim", to_json(r.m_claim)},
              {"status", r.m_status},
              {"skip_reason", r.m_skip_reason ? json(*r.m_skip_reason) : json(nullptr)},
              {"seeds", r.m_seeds},
              {"tolerance", to_json(r.m_tolerance)},
              {"trials", trials}};
  if (r.m_note) doc["note"] = *r.m_note;
  return doc;
}

correctness_result correctness_result_from_json(const json_reader& root) {
  (void)check_kind(root, k_correctness_kind, k_correctness_schema_version);
  correctness_result r;
  r.m_kernel = root.at("kernel").as_string();
  r.m_variant = root.at("variant").as_string();
  if (root.has("backend")) r.m_backend = root.at("backend").as_string();
  r.m_device = optional_string(root, "device");
  if (root.has("gpu")) r.m_gpu = gpu_info_from_json(root.at("gpu"));
  if (root.has("claim")) r.m_claim = gpu_claim_from_json(root.at("claim"));
  r.m_status = root.at("status").as_string();
  if (r.m_status != "pass" && r.m_status != "fail" && r.m_status != "skipped") {
    root.at("status").fail("expected \"pass\", \"fail\" or \"skipped\", got \"" + shorten(r.m_status) + "\"");
  }
  r.m_skip_reason = optional_string(root, "skip_reason");
  if (root.has("seeds")) {
    const json_reader seeds = root.at("seeds");
    for (std::size_t i = 0; i < seeds.size(); ++i) r.m_seeds.push_back(seeds.at(i).as_non_negative_integer());
  }
  if (root.has("tolerance")) r.m_tolerance = tolerance_from_json(root.at("tolerance"));
  // A skipped run has no trials to read.
  if (r.m_status != "skipped" || root.has("trials")) {
    const json_reader trials = root.at("trials");
    for (std::size_t i = 0; i < trials.size(); ++i) r.m_trials.push_back(trial_from_json(trials.at(i)));
  }
  r.m_note = optional_string(root, "note");
  return r;
}

std::vector<format_table> correctness_tables() {
  return {{"kernelopt.correctness", k_file_fields},
          {"kernelopt.correctness: trials[]", k_trial_fields},
          {"kernelopt.correctness: trials[].phases_s", k_phases_fields},
          {"kernelopt.correctness: trials[].outputs[]", k_output_fields},
          {"kernelopt.correctness: trials[].outputs[].first_mismatch", k_mismatch_fields}};
}

}  // namespace kopt
