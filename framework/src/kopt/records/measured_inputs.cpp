#include "kopt/records/measured_inputs.hpp"

#include <map>
#include <stdexcept>

namespace kopt {
namespace {

const std::vector<field_doc> k_inputs_fields = {
    {"args", "array", "ARGS as declared, each with how the harness filled it (the manifest's `args[]` table: `init` is the INIT entry or the dtype's default)"},
    {"dims", "array", "DIMS as declared"},
    {"reference", "object | null", "the reference its outputs were checked against (the `inputs.reference` table); null when none was declared"},
};

const std::vector<field_doc> k_reference_fields = {
    {"entry", "string", "REFERENCE, the reference's entry function"},
    {"backend", "string | null", "REFERENCE_BACKEND"},
    {"precision", "string | null", "REFERENCE_PRECISION (`f64` or `native`)"},
    {"sources", "object", "`sha256` over REFERENCE_SOURCES and the headers they include, and each file's: hashed as a variant's `source` (scope `build`, no compile options)"},
};

std::optional<std::string> optional_string(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_string();
}

// The declaration of an argument, without its fill (compared as INIT).
bool same_declaration(const arg_decl& a, const arg_decl& b) {
  return a.m_name == b.m_name && a.m_dir == b.m_dir && a.m_dtype == b.m_dtype && a.m_shape == b.m_shape;
}

std::map<std::string, std::optional<std::string>> fills(const std::vector<arg_decl>& args) {
  std::map<std::string, std::optional<std::string>> by_name;
  for (const arg_decl& a : args) by_name[a.m_name] = a.m_init;
  return by_name;
}

}  // namespace

current_inputs inputs_now(const manifest& m) {
  current_inputs now;
  measured_inputs declared{m.m_args, m.m_dims, std::nullopt};
  if (m.m_reference) {
    const impl_decl& ref = *m.m_reference;
    try {
      declared.m_reference = reference_inputs{ref.m_entry, ref.m_backend, ref.m_precision, hash_build(ref.m_sources, {})};
    } catch (const std::exception& error) {
      now.m_error = error.what();
      return now;
    }
  }
  now.m_inputs = std::move(declared);
  return now;
}

std::vector<std::string> input_differences(const measured_inputs& recorded, const measured_inputs& other) {
  std::vector<std::string> diffs;
  bool same_args = recorded.m_args.size() == other.m_args.size();
  for (std::size_t i = 0; same_args && i < recorded.m_args.size(); ++i) {
    same_args = same_declaration(recorded.m_args[i], other.m_args[i]);
  }
  if (!same_args) diffs.push_back("ARGS");
  if (fills(recorded.m_args) != fills(other.m_args)) diffs.push_back("INIT");
  if (recorded.m_dims != other.m_dims) diffs.push_back("DIMS");
  const std::optional<reference_inputs>& a = recorded.m_reference;
  const std::optional<reference_inputs>& b = other.m_reference;
  if (a.has_value() != b.has_value()) {
    diffs.push_back("REFERENCE");
  } else if (a && b) {
    if (a->m_entry != b->m_entry) diffs.push_back("REFERENCE");
    if (a->m_backend != b->m_backend) diffs.push_back("REFERENCE_BACKEND");
    if (a->m_precision != b->m_precision) diffs.push_back("REFERENCE_PRECISION");
    if (a->m_sources.m_sha256 != b->m_sources.m_sha256) diffs.push_back("reference sources");
  }
  return diffs;
}

json to_json(const measured_inputs& inputs) {
  json args = json::array();
  for (const arg_decl& a : inputs.m_args) args.push_back(to_json(a));
  json reference = nullptr;
  if (inputs.m_reference) {
    const reference_inputs& r = *inputs.m_reference;
    reference = {{"entry", r.m_entry},
                 {"backend", string_or_null(r.m_backend)},
                 {"precision", string_or_null(r.m_precision)},
                 {"sources", to_json(r.m_sources)}};
  }
  return {{"args", args}, {"dims", inputs.m_dims}, {"reference", reference}};
}

measured_inputs measured_inputs_from_json(const json_reader& node) {
  measured_inputs inputs;
  const json_reader args = node.at("args");
  for (std::size_t i = 0; i < args.size(); ++i) inputs.m_args.push_back(arg_decl_from_json(args.at(i)));
  const json_reader dims = node.at("dims");
  for (std::size_t i = 0; i < dims.size(); ++i) inputs.m_dims.push_back(dims.at(i).as_string());
  if (node.has("reference")) {
    const json_reader r = node.at("reference");
    inputs.m_reference = reference_inputs{r.at("entry").as_string(), optional_string(r, "backend"),
                                          optional_string(r, "precision"), source_hash_from_json(r.at("sources"))};
  }
  return inputs;
}

std::vector<format_table> measured_inputs_tables() {
  return {{"kernelopt.record: inputs", k_inputs_fields}, {"kernelopt.record: inputs.reference", k_reference_fields}};
}

}  // namespace kopt
