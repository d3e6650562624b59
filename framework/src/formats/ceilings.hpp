// Hardware ceilings (`kernelopt.ceilings`): the one type its writers and
// readers share. Written by `kopt ceilings` (cuda/ceiling_probes measures,
// this type serializes) and by `kopt record` when a spec file fills in
// (decide/assemble); read by kopt (record, perf, TARGETs), the benchmark
// (`--kopt_ceilings`, % of ceiling) and the profile's roofline.
// A value that is not known is null with a reason, never guessed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"

namespace kopt {

inline constexpr const char* k_ceilings_kind = "kernelopt.ceilings";
inline constexpr int k_ceilings_schema_version = 1;

struct ceiling {
  std::string m_name;             // [A-Za-z_][A-Za-z0-9_]*: "copy_bandwidth", "bf16_tensor"
  std::optional<double> m_value;  // in m_unit, finite and > 0; nullopt: unknown, m_reason says why
  std::string m_unit;             // "B/s" or "FLOP/s"
  std::string m_method;           // how it was measured; "" when not stated
  std::string m_reason;           // why m_value is unknown
  std::string m_source = "not stated";  // "measured", or the document and section it comes from
  json m_details;                 // the measurement's sizes, samples and clocks; null when none

  [[nodiscard]] bool measured() const { return m_source == "measured"; }
  [[nodiscard]] bool bandwidth() const { return m_unit == "B/s"; }
};

// Where `kopt ceilings` measured: written with every measured document,
// absent from one written by hand or from a spec file.
struct ceilings_measurement {
  std::string m_device_uuid;         // "GPU-..." (nvidia-smi's form)
  std::int64_t m_device_index = 0;   // CUDA ordinal
  std::string m_compute_capability;  // "9.0"
  std::int64_t m_sm_count = 0;
  std::int64_t m_l2_bytes = 0;
  std::int64_t m_memory_bytes = 0;
  std::string m_cublas;   // cuBLAS version, or why it is unknown
  json m_clocks;          // {"before": ..., "after": ...}: NVML clocks around the whole run
  std::string m_mode;     // "full", or "quick (...)": a smoke test, not a ceiling
};

struct ceilings_file {
  std::string m_device;
  std::string m_date;  // ISO date or UTC time of the measurement; "unknown" for spec values only
  std::optional<ceilings_measurement> m_measurement;
  std::vector<ceiling> m_ceilings;  // in file order

  [[nodiscard]] const ceiling* find(const std::string& name) const;
};

[[nodiscard]] json to_json(const ceilings_file& ceilings);
// `node` is the document (or a record's embedded copy): kind and
// schema_version checked; every value finite and > 0 or unknown; names
// [A-Za-z_][A-Za-z0-9_]*; units "B/s" or "FLOP/s" (without a unit, a name
// containing "bandwidth" is B/s, any other FLOP/s). Throws format_error
// naming the file and the JSON path.
[[nodiscard]] ceilings_file ceilings_from_json(const json_reader& node);
[[nodiscard]] ceilings_file read_ceilings(const std::filesystem::path& path);


// The value in the units TARGET expressions use beside it: TFLOP/s for
// FLOP/s (like `tflops`), GB/s for B/s (like `gbps`). nullopt with `why`
// set when unknown.
[[nodiscard]] std::optional<double> value_in_target_units(const ceiling& c, std::string& why);

// % of ceiling (as a fraction): a rate in FLOP/s against every known FLOP/s
// ceiling, a rate in B/s against every known B/s ceiling. A rate that is
// not known or not > 0 contributes nothing. The one computation the
// benchmark (kopt.pct_of_ceiling) and kopt record (--ceilings) share.
using ceiling_fractions = std::map<std::string, double>;
[[nodiscard]] ceiling_fractions fractions_of_ceilings(const ceilings_file& ceilings,
                                                      std::optional<double> flop_per_s,
                                                      std::optional<double> byte_per_s);
// pct_of_ceiling as written: null without ceilings, else {name: fraction}.
[[nodiscard]] json fractions_to_json(const std::optional<ceiling_fractions>& fractions);
// Each fraction finite and >= 0; null is no ceilings.
[[nodiscard]] std::optional<ceiling_fractions> fractions_from_json(const json_reader& node);

[[nodiscard]] std::vector<format_table> ceilings_tables();

}  // namespace kopt
