// The roofline position of a benchmark: the ceilings it can be measured
// against (a measured kernelopt.ceilings document, else the GPU's spec file
// in framework/specs), which compute ceiling applies, and the attainable
// rate and gap at the kernel's arithmetic intensity.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/ceilings.hpp"
#include "formats/field_doc.hpp"
#include "formats/spec.hpp"
#include "kopt/profile/ncu_csv.hpp"

namespace kopt::profile {

// ---- ceilings for the roofline -------------------------------------------------
struct ceiling_value {
  std::string m_name;    // "copy_bandwidth", "dram_bandwidth", "bf16_tensor", ...
  double m_value = 0;    // B/s or FLOP/s
  std::string m_unit;
  std::string m_source;  // "measured (<file>)" or the spec document's citation
};

// The rates the roofline can use: from a kernelopt.ceilings document
// (measured: copy_bandwidth, fp32_fma, bf16_tensor, ...) and/or a
// kernelopt.spec document (dense rates, dram_bandwidth). Measured wins.
class ceiling_set {
 public:
  void add_ceilings(const ceilings_file& ceilings, const std::string& file);
  void add_spec(const spec_file& spec);
  [[nodiscard]] std::optional<ceiling_value> find(const std::string& name) const;
  // copy_bandwidth (measured), else dram_bandwidth (spec).
  [[nodiscard]] std::optional<ceiling_value> bandwidth() const;
  [[nodiscard]] bool empty() const { return m_values.empty(); }

 private:
  std::map<std::string, ceiling_value> m_values;
};

// Which compute ceiling a benchmark is measured against, and why: a forced
// name; else by the kernel's input dtype (bf16 -> bf16_tensor, f16 ->
// fp16_tensor, f64 -> fp64), f32 inputs -> tf32_tensor when the tensor pipe
// was active, else fp32_fma.
struct compute_choice {
  std::string m_name;
  std::string m_why;
};
[[nodiscard]] compute_choice choose_compute_ceiling(const std::string& forced, const std::vector<std::string>& input_dtypes,
                                                    const std::vector<kernel_profile>& kernels);

struct roofline_point {
  double m_flops = 0;                 // FLOPS of the work model at the shape
  double m_bytes = 0;                 // BYTES of the work model
  double m_intensity = 0;             // flops / bytes (FLOP/B)
  std::optional<double> m_dram_intensity;  // flops / measured DRAM bytes
  double m_duration_ns = 0;           // the kernels' summed gpu__time_duration
  double m_achieved_flops = 0;        // FLOP/s
  double m_achieved_bytes = 0;        // B/s (model bytes)
  ceiling_value m_compute;
  ceiling_value m_bandwidth;
  double m_attainable_flops = 0;      // min(compute, intensity * bandwidth)
  std::string m_bound;                // "memory" or "compute": which roof is lower here
  double m_fraction = 0;              // achieved / attainable
  double m_gap = 0;                   // 1 - fraction
};
[[nodiscard]] roofline_point roofline(double flops, double bytes, std::optional<double> dram_bytes, double duration_ns,
                                      const ceiling_value& compute, const ceiling_value& bandwidth);
[[nodiscard]] json to_json(const roofline_point& p);
// Every field of to_json's object; other keys (the document's
// compute_ceiling.why) are left to the caller. Throws format_error naming
// the file and the JSON pointer.
[[nodiscard]] roofline_point roofline_point_from_json(const json_reader& node);
// Table (docs/formats.md): the point, and a ceiling in it.
[[nodiscard]] std::vector<format_table> roofline_tables();

// ---- device -> spec file -------------------------------------------------------
// The spec file (framework/specs/*.json, kind kernelopt.spec) whose "match"
// regexes match `device_name` as cudaGetDeviceProperties gives it ("NVIDIA
// H100 80GB HBM3"), read; nullopt when none does. Throws format_error on a
// malformed spec file.
[[nodiscard]] std::optional<spec_file> find_spec(const std::filesystem::path& specs_dir,
                                                 const std::string& device_name);

}  // namespace kopt::profile
