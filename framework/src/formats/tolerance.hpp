// A kernel's declared TOLERANCE, as the manifest declares it (written by
// cmake/kernelopt/Manifest.cmake, or by hand), the correctness result ran
// it and the record keeps it. One type for all three and their readers.
#pragma once

#include <optional>
#include <string>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"

namespace kopt {

struct declared_tolerance {
  double m_rtol = 0;
  double m_atol = 0;
  std::optional<double> m_max_rel_l2;  // absent or null: no rel-L2 bound
  std::string m_source;                // "TOLERANCE", "default for f32", ...; "" when not given

  [[nodiscard]] bool operator==(const declared_tolerance& other) const {
    return m_rtol == other.m_rtol && m_atol == other.m_atol && m_max_rel_l2 == other.m_max_rel_l2 &&
           m_source == other.m_source;
  }
  [[nodiscard]] bool operator!=(const declared_tolerance& other) const { return !(*this == other); }
};

// null for nullopt (per-dtype defaults); else rtol, atol, max_rel_l2 (only
// when set) and source, in that order.
[[nodiscard]] json to_json(const std::optional<declared_tolerance>& tolerance);
// null, or an object whose rtol and atol are finite and >= 0, max_rel_l2
// too when present and not null (CMake writes null, a hand-written manifest
// may leave it out). Throws format_error naming the file and the field.
[[nodiscard]] std::optional<declared_tolerance> tolerance_from_json(const json_reader& node);

// The table of the object (manifest, correctness result and record share it).
[[nodiscard]] format_table tolerance_table();

}  // namespace kopt
