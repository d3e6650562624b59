#include "kopt/inputs/ceilings.hpp"

namespace kopt {

const ceiling* ceilings_file::find(const std::string& name) const {
  for (const ceiling& c : m_ceilings) {
    if (c.m_name == name) return &c;
  }
  return nullptr;
}

ceilings_file ceilings_from_json(const json& doc, const std::string& file) {
  const json_reader root(doc, file);
  ceilings_file result;
  result.m_device = root.at("device").as_string();
  result.m_date = root.at("date").as_string();
  const json_reader entries = root.at("ceilings");
  if (!entries.raw().is_object()) entries.fail("expected an object of named ceilings");
  for (const auto& item : entries.raw().items()) {
    const json_reader entry = entries.at(item.key());
    ceiling c;
    c.m_name = item.key();
    // Unknown: no value, null or "unknown", with a reason.
    if (entry.has("value") &&
        !(entry.at("value").raw().is_string() && entry.at("value").as_string() == "unknown")) {
      c.m_value = entry.at("value").as_positive();
    } else {
      c.m_reason = entry.has("reason") ? entry.at("reason").as_string() : "value unknown";
    }
    // Without a unit, as the benchmark reads it: a bandwidth when the name says so.
    if (entry.has("unit")) {
      c.m_unit = entry.at("unit").as_string();
    } else {
      c.m_unit = c.m_name.find("bandwidth") != std::string::npos ? "B/s" : "FLOP/s";
    }
    c.m_method = entry.has("method") ? entry.at("method").as_string() : "";
    c.m_source = entry.has("source") ? entry.at("source").as_string() : "not stated";
    result.m_ceilings.push_back(std::move(c));
  }
  return result;
}

json read_ceilings_document(const std::filesystem::path& path) {
  json doc = read_json_file(path);
  check_kind(doc, path, "kernelopt.ceilings", 1);
  (void)ceilings_from_json(doc, path.string());  // every entry well-formed now, not at use
  return doc;
}

std::optional<double> value_in_target_units(const ceiling& c, std::string& why) {
  if (!c.m_value) {
    why = c.m_name + " is unknown: " + c.m_reason;
    return std::nullopt;
  }
  if (c.m_unit == "FLOP/s") return *c.m_value / 1e12;
  if (c.m_unit == "B/s") return *c.m_value / 1e9;
  why = c.m_name + " has unit \"" + c.m_unit + "\" (kopt knows FLOP/s and B/s)";
  return std::nullopt;
}

json fractions_of_ceilings(const ceilings_file& ceilings, std::optional<double> tflops,
                           std::optional<double> gbps) {
  json out = json::object();
  for (const ceiling& c : ceilings.m_ceilings) {
    if (!c.m_value || *c.m_value <= 0) continue;
    if (c.m_unit == "FLOP/s" && tflops) out[c.m_name] = *tflops * 1e12 / *c.m_value;
    if (c.m_unit == "B/s" && gbps) out[c.m_name] = *gbps * 1e9 / *c.m_value;
  }
  return out.empty() ? json(nullptr) : out;
}

}  // namespace kopt
