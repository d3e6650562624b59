#include "bench/ceilings.hpp"

namespace kopt::bench {

ceilings read_ceilings(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  check_kind(doc, path, "kernelopt.ceilings", 1);
  const json_reader root(doc, path.string());
  const json_reader entries = root.at("ceilings");
  if (!entries.raw().is_object()) entries.fail("expected an object of ceilings");
  ceilings result;
  result.m_file = path.string();
  for (const auto& [name, node] : entries.raw().items()) {
    const json_reader entry = entries.at(name);
    if (!node.is_object()) entry.fail("expected an object with \"value\"");
    // Unknown ceilings carry no value (or null, or "unknown") and a reason.
    const auto value = node.find("value");
    if (value == node.end() || value->is_null() || (value->is_string() && *value == "unknown")) continue;
    ceiling c;
    c.m_value = entry.at("value").as_positive();  // 0, negative or not a number: an input error
    if (node.contains("unit") && node["unit"].is_string()) {
      c.m_bandwidth = node["unit"].get<std::string>() == "B/s";
    } else {
      c.m_bandwidth = name.find("bandwidth") != std::string::npos;
    }
    result.m_entries[name] = c;
  }
  return result;
}

std::map<std::string, double> fractions_of(const ceilings& limits, double flop_per_s, double byte_per_s) {
  std::map<std::string, double> fractions;
  for (const auto& [name, c] : limits.m_entries) {
    const double rate = c.m_bandwidth ? byte_per_s : flop_per_s;
    if (rate > 0) fractions[name] = rate / c.m_value;
  }
  return fractions;
}

}  // namespace kopt::bench
