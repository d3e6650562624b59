// A GPU's published figures (`kernelopt.spec`, framework/specs/*.json,
// written by hand, every value with its source): read here once, by
// find_spec (its `match` patterns), the roofline and `kopt record`'s spec
// fill-in (its rates, as ceilings).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/ceilings.hpp"
#include "formats/field_doc.hpp"

namespace kopt {

inline constexpr int k_spec_schema_version = 1;

struct spec_value {
  std::string m_name;            // "dram_bandwidth", "fp32_fma", "l2_bytes", ...
  std::optional<double> m_value;  // nullopt: "unknown" (m_reason says why)
  std::string m_unit;            // "B/s", "FLOP/s", "B", "SM", "W", ...
  std::optional<std::string> m_source;      // "<source id>, <where in it>"
  std::optional<std::string> m_reason;      // why it is unknown
  std::optional<std::string> m_derivation;  // how it follows from the source (dense = sparse / 2)
  std::optional<std::string> m_note;

  [[nodiscard]] bool rate() const { return m_unit == "B/s" || m_unit == "FLOP/s"; }
};

struct spec_file {
  std::filesystem::path m_path;  // where it was read from (not written)
  std::string m_device;
  std::vector<std::string> m_match;  // ECMAScript regexes over the CUDA device name, case-insensitive
  std::optional<std::string> m_match_note;
  json m_sources = json::array();  // the cited documents, as written
  std::optional<std::string> m_notes;
  std::optional<std::string> m_verification;
  std::vector<spec_value> m_values;  // in file order

  // The known rates (FLOP/s and B/s) as ceilings whose source is the
  // spec's citation ("not stated" when it has none).
  [[nodiscard]] std::vector<ceiling> rates() const;
};

[[nodiscard]] json to_json(const spec_file& spec);
// Checks kind, schema_version, each value (a number, > 0 for a rate, or
// "unknown") and unit. Throws format_error naming the file and field.
[[nodiscard]] spec_file spec_from_json(const json_reader& root);
[[nodiscard]] spec_file read_spec(const std::filesystem::path& path);

[[nodiscard]] std::vector<format_table> spec_tables();

}  // namespace kopt
