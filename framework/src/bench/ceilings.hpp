// Measured ceilings (`kopt ceilings` writes them, kind kernelopt.ceilings)
// and what fraction of them a benchmark reached.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "core/json_io.hpp"

namespace kopt::bench {

struct ceiling {
  double m_value = 0;   // B/s or FLOP/s
  bool m_bandwidth = false;
};

struct ceilings {
  std::string m_file;
  std::map<std::string, ceiling> m_entries;  // name -> ceiling; unknown values left out
};

// Reads `{"kind":"kernelopt.ceilings","schema_version":1,"ceilings":{NAME:
// {"value":V, "unit":"B/s"|"FLOP/s", ...}}}`. An entry is a bandwidth when
// its unit is "B/s" (or, without a unit, when its name contains
// "bandwidth"); otherwise a FLOP/s rate. Entries without a positive
// number as value (unknown: absent, null) are left out. Throws format_error.
[[nodiscard]] ceilings read_ceilings(const std::filesystem::path& path);

// Fraction of each applicable ceiling: bytes/s against every bandwidth,
// flop/s against every FLOP/s ceiling. A rate that is not declared (0)
// contributes nothing.
[[nodiscard]] std::map<std::string, double> fractions_of(const ceilings& limits, double flop_per_s,
                                                         double byte_per_s);

}  // namespace kopt::bench
