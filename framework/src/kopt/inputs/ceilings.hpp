// Hardware ceilings (`kernelopt.ceilings`): measured on the device (source
// "measured", with device, date and method) or taken from a spec document
// (source "<document, section>"). A value that is not known is null with a
// reason, never guessed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"

namespace kopt {

struct ceiling {
  std::string m_name;             // "copy_bandwidth", "bf16_tensor"
  std::optional<double> m_value;  // in m_unit
  std::string m_unit;             // "B/s" or "FLOP/s"
  std::string m_method;
  std::string m_source;  // "measured" or "<document, section>"
  std::string m_reason;  // why m_value is unknown

  [[nodiscard]] bool measured() const { return m_source == "measured"; }
};

struct ceilings_file {
  std::string m_device;
  std::string m_date;
  std::vector<ceiling> m_ceilings;

  [[nodiscard]] const ceiling* find(const std::string& name) const;
};

[[nodiscard]] ceilings_file ceilings_from_json(const json& doc, const std::string& file);
// Reads and checks kind/schema_version.
[[nodiscard]] json read_ceilings_document(const std::filesystem::path& path);

// The value in the units that TARGET expressions use beside it: TFLOP/s for
// "FLOP/s" (like `tflops`), GB/s for "B/s" (like `gbps`). nullopt with
// `why` set when unknown.
[[nodiscard]] std::optional<double> value_in_target_units(const ceiling& c, std::string& why);

// Fraction of each ceiling a rate reaches: B/s ceilings against `gbps`,
// FLOP/s ceilings against `tflops`. Null when there is nothing to compare.
[[nodiscard]] json fractions_of_ceilings(const ceilings_file& ceilings, std::optional<double> tflops,
                                         std::optional<double> gbps);

}  // namespace kopt
