#include "formats/ceilings.hpp"

#include <cctype>

namespace kopt {
namespace {

const std::vector<field_doc> k_file_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.ceilings`"},
    {"device", "string", "the device the values are for"},
    {"device_uuid", "string", "measured only: the GPU's UUID (`GPU-...`)"},
    {"device_index", "integer", "measured only: the CUDA ordinal"},
    {"compute_capability", "string", "measured only: `9.0`"},
    {"sm_count", "integer", "measured only: multiprocessors"},
    {"l2_bytes", "integer", "measured only: L2 cache size"},
    {"memory_bytes", "integer", "measured only: device memory size"},
    {"date", "string", "when measured (ISO date or UTC time); `unknown` for spec values only"},
    {"cublas", "string", "measured only: the cuBLAS version used for the tensor-core rates"},
    {"clocks", "object", "measured only: NVML clocks `before` and `after` the run"},
    {"ceilings", "object", "one entry per ceiling, by name (`[A-Za-z_][A-Za-z0-9_]*`)"},
    {"mode", "string", "measured only: `full`, or `quick (...)`: a smoke test, not a ceiling"},
};

const std::vector<field_doc> k_entry_fields = {
    {"value", "number | null", "in `unit`, finite and > 0; `null` (or absent, or `\"unknown\"`) when unknown"},
    {"unit", "string", "`B/s` or `FLOP/s`; absent: B/s when the name contains `bandwidth`, else FLOP/s"},
    {"method", "string", "how it was measured (absent when not stated)"},
    {"reason", "string", "why the value is unknown (only then)"},
    {"source", "string", "`measured`, or the document and section the value comes from"},
    {"details", "object", "measured only: sizes, per-configuration medians, samples, clocks"},
};

bool is_ceiling_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  if (!(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  for (const char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

std::string optional_string(const json_reader& node, const char* key, const std::string& otherwise = "") {
  return node.has(key) ? node.at(key).as_string() : otherwise;
}

ceiling ceiling_from_json(const std::string& name, const json_reader& entry) {
  if (!entry.raw().is_object()) entry.fail("expected an object (value, unit, source, ...)");
  if (!is_ceiling_name(name)) {
    entry.fail("\"" + shorten(name) +
               "\" is not a ceiling name ([A-Za-z_][A-Za-z0-9_]*, at most 64 characters: it is used as "
               "ceiling.<name> in TARGET expressions)");
  }
  ceiling c;
  c.m_name = name;
  // Unknown: no value, null or "unknown", with a reason.
  if (entry.has("value") &&
      !(entry.at("value").raw().is_string() && entry.at("value").as_string() == "unknown")) {
    c.m_value = entry.at("value").as_positive();
  } else {
    c.m_reason = optional_string(entry, "reason", "value unknown");
  }
  if (entry.has("unit")) {
    c.m_unit = entry.at("unit").as_string();
    if (c.m_unit != "B/s" && c.m_unit != "FLOP/s") {
      entry.at("unit").fail("expected \"B/s\" or \"FLOP/s\", got \"" + shorten(c.m_unit) + "\"");
    }
  } else {
    c.m_unit = name.find("bandwidth") != std::string::npos ? "B/s" : "FLOP/s";
  }
  c.m_method = optional_string(entry, "method");
  c.m_source = optional_string(entry, "source", "not stated");
  if (entry.has("details")) c.m_details = entry.at("details").raw();
  return c;
}

json to_json(const ceiling& c) {
  json entry = {{"value", number_or_null(c.m_value)}, {"unit", c.m_unit}};
  if (!c.m_method.empty()) entry["method"] = c.m_method;
  if (!c.m_value) entry["reason"] = c.m_reason;
  entry["source"] = c.m_source;
  if (!c.m_details.is_null()) entry["details"] = c.m_details;
  return entry;
}

ceilings_measurement measurement_from_json(const json_reader& root) {
  ceilings_measurement m;
  m.m_device_uuid = root.at("device_uuid").as_string();
  m.m_device_index = root.at("device_index").as_non_negative_integer();
  m.m_compute_capability = root.at("compute_capability").as_string();
  m.m_sm_count = root.at("sm_count").as_count();
  m.m_l2_bytes = root.at("l2_bytes").as_non_negative_integer();
  m.m_memory_bytes = root.at("memory_bytes").as_non_negative_integer();
  m.m_cublas = root.at("cublas").as_string();
  const json_reader clocks = root.at("clocks");
  if (!clocks.raw().is_object()) clocks.fail("expected an object (before, after)");
  m.m_clocks = clocks.raw();
  m.m_mode = root.at("mode").as_string();
  return m;
}

}  // namespace

const ceiling* ceilings_file::find(const std::string& name) const {
  for (const ceiling& c : m_ceilings) {
    if (c.m_name == name) return &c;
  }
  return nullptr;
}

json to_json(const ceilings_file& ceilings) {
  json entries = json::object();
  for (const ceiling& c : ceilings.m_ceilings) entries[c.m_name] = to_json(c);
  json doc = {{"schema_version", k_ceilings_schema_version}, {"kind", k_ceilings_kind}, {"device", ceilings.m_device}};
  const std::optional<ceilings_measurement>& m = ceilings.m_measurement;
  if (m) {
    doc["device_uuid"] = m->m_device_uuid;
    doc["device_index"] = m->m_device_index;
    doc["compute_capability"] = m->m_compute_capability;
    doc["sm_count"] = m->m_sm_count;
    doc["l2_bytes"] = m->m_l2_bytes;
    doc["memory_bytes"] = m->m_memory_bytes;
  }
  doc["date"] = ceilings.m_date;
  if (m) {
    doc["cublas"] = m->m_cublas;
    doc["clocks"] = m->m_clocks;
  }
  doc["ceilings"] = entries;
  if (m) doc["mode"] = m->m_mode;
  return doc;
}

ceilings_file ceilings_from_json(const json_reader& node) {
  (void)check_kind(node, k_ceilings_kind, k_ceilings_schema_version);
  ceilings_file result;
  result.m_device = node.at("device").as_string();
  result.m_date = node.at("date").as_string();
  if (node.has("device_uuid")) result.m_measurement = measurement_from_json(node);
  const json_reader entries = node.at("ceilings");
  if (!entries.raw().is_object()) entries.fail("expected an object of named ceilings");
  for (const auto& item : entries.raw().items()) {
    result.m_ceilings.push_back(ceiling_from_json(item.key(), entries.at(item.key())));
  }
  return result;
}

ceilings_file read_ceilings(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  return ceilings_from_json(json_reader(doc, path.string()));
}

std::optional<double> value_in_target_units(const ceiling& c, std::string& why) {
  if (!c.m_value) {
    why = c.m_name + " is unknown: " + c.m_reason;
    return std::nullopt;
  }
  return c.bandwidth() ? *c.m_value / 1e9 : *c.m_value / 1e12;
}

ceiling_fractions fractions_of_ceilings(const ceilings_file& ceilings, std::optional<double> flop_per_s,
                                        std::optional<double> byte_per_s) {
  ceiling_fractions fractions;
  for (const ceiling& c : ceilings.m_ceilings) {
    if (!c.m_value) continue;
    const std::optional<double>& rate = c.bandwidth() ? byte_per_s : flop_per_s;
    if (rate && *rate > 0) fractions[c.m_name] = *rate / *c.m_value;
  }
  return fractions;
}

json fractions_to_json(const std::optional<ceiling_fractions>& fractions) {
  if (!fractions) return nullptr;
  json out = json::object();
  for (const auto& [name, fraction] : *fractions) out[name] = fraction;
  return out;
}

std::optional<ceiling_fractions> fractions_from_json(const json_reader& node) {
  if (node.is_null()) return std::nullopt;
  if (!node.raw().is_object()) node.fail("expected an object of fractions by ceiling name, or null");
  ceiling_fractions fractions;
  for (const auto& item : node.raw().items()) fractions[item.key()] = node.at(item.key()).as_non_negative();
  return fractions;
}

std::vector<format_table> ceilings_tables() {
  return {{"kernelopt.ceilings", k_file_fields}, {"kernelopt.ceilings: ceilings.<name>", k_entry_fields}};
}

}  // namespace kopt
