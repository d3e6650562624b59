#include "formats/spec.hpp"

namespace kopt {
namespace {

const char* const k_spec_kind = "kernelopt.spec";

const std::vector<field_doc> k_spec_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.spec`"},
    {"device", "string", "the board these figures are for"},
    {"match", "array", "regexes (ECMAScript, case-insensitive) over the CUDA device name; the first file that matches is used"},
    {"match_note", "string", "why the patterns are what they are"},
    {"sources", "array", "the cited documents, each with an `id` that values' `source` starts with"},
    {"notes", "string", "what the figures mean (boost clock, dense vs sparse, ...)"},
    {"verification", "string", "how close the sources are to NVIDIA's own document"},
    {"values", "object", "the figures by name"},
};

const std::vector<field_doc> k_value_fields = {
    {"value", "number | string", "the figure, or `unknown`; a rate (B/s, FLOP/s) is > 0"},
    {"unit", "string", "`B/s`, `FLOP/s`, `B`, `SM`, `W`, ...; only B/s and FLOP/s are used as ceilings"},
    {"source", "string", "`<source id>, <where in it>`"},
    {"reason", "string", "why the value is unknown"},
    {"derivation", "string", "how the value follows from its source"},
    {"note", "string", "anything else"},
};

std::optional<std::string> optional_string(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_string();
}

void put(json& out, const char* key, const std::optional<std::string>& value) {
  if (value) out[key] = *value;
}

spec_value value_from_json(const std::string& name, const json_reader& node) {
  spec_value v;
  v.m_name = name;
  v.m_unit = node.at("unit").as_string();
  const json_reader value = node.at("value");
  if (value.raw().is_string()) {
    if (value.as_string() != "unknown") value.fail("expected a number or \"unknown\"");
  } else {
    v.m_value = v.rate() ? value.as_positive() : value.as_number();
  }
  v.m_source = optional_string(node, "source");
  v.m_reason = optional_string(node, "reason");
  v.m_derivation = optional_string(node, "derivation");
  v.m_note = optional_string(node, "note");
  return v;
}

}  // namespace

std::vector<ceiling> spec_file::rates() const {
  std::vector<ceiling> out;
  for (const spec_value& v : m_values) {
    if (!v.rate() || !v.m_value) continue;
    ceiling c;
    c.m_name = v.m_name;
    c.m_value = v.m_value;
    c.m_unit = v.m_unit;
    c.m_source = v.m_source.value_or("not stated");
    out.push_back(std::move(c));
  }
  return out;
}

json to_json(const spec_file& spec) {
  json out = {{"schema_version", k_spec_schema_version},
              {"kind", k_spec_kind},
              {"device", spec.m_device},
              {"match", spec.m_match}};
  put(out, "match_note", spec.m_match_note);
  out["sources"] = spec.m_sources;
  put(out, "notes", spec.m_notes);
  put(out, "verification", spec.m_verification);
  json values = json::object();
  for (const spec_value& v : spec.m_values) {
    json entry = {{"value", v.m_value ? json(*v.m_value) : json("unknown")}, {"unit", v.m_unit}};
    put(entry, "source", v.m_source);
    put(entry, "reason", v.m_reason);
    put(entry, "derivation", v.m_derivation);
    put(entry, "note", v.m_note);
    values[v.m_name] = entry;
  }
  out["values"] = values;
  return out;
}

spec_file spec_from_json(const json_reader& root) {
  (void)check_kind(root, k_spec_kind, k_spec_schema_version);
  spec_file spec;
  spec.m_device = root.has("device") ? root.at("device").as_string() : "?";
  const json_reader match = root.at("match");
  for (std::size_t i = 0; i < match.size(); ++i) spec.m_match.push_back(match.at(i).as_string());
  spec.m_match_note = optional_string(root, "match_note");
  if (root.has("sources")) {
    (void)root.at("sources").size();  // an array
    spec.m_sources = root.at("sources").raw();
  }
  spec.m_notes = optional_string(root, "notes");
  spec.m_verification = optional_string(root, "verification");
  if (root.has("values")) {
    const json_reader values = root.at("values");
    if (!values.raw().is_object()) values.fail("expected an object of named values");
    for (const auto& item : values.raw().items()) {
      spec.m_values.push_back(value_from_json(item.key(), values.at(item.key())));
    }
  }
  return spec;
}

spec_file read_spec(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  spec_file spec = spec_from_json(json_reader(doc, path.string()));
  spec.m_path = path;
  return spec;
}

std::vector<format_table> spec_tables() {
  return {{"kernelopt.spec", k_spec_fields}, {"kernelopt.spec: values.<name>", k_value_fields}};
}

}  // namespace kopt
