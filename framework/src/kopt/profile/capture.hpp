// Taking a profile: Nsight Compute on one launch per implementation x shape
// of the kernel's benchmark executable in its profile mode (warm-up, then
// one launch between cudaProfilerStart/Stop), one ncu process per benchmark
// so that every profiled kernel belongs to exactly one benchmark; each
// report imported as ncu's raw CSV page and turned into kernelopt.profile
// (profile/document.hpp). `kopt profile` and `kopt optimize` both call it.
//
// Without ncu, or when the counters cannot be read (ERR_NVGPUCTRPERM), the
// document says {"status": "unavailable", "reason": ...}.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/profile/document.hpp"

namespace kopt::profile {

// Where the roofline's rates and the device name come from.
struct settings_request {
  std::optional<std::string> m_ceilings_file;  // a kernelopt.ceilings document
  std::optional<std::string> m_specs_dir;      // framework/specs
  std::optional<std::string> m_device;         // when the CSV lacks it
  std::optional<std::string> m_compute_ceiling;  // forced
};

// The document settings of kernel `m`: its work model, input dtypes, and
// the ceilings file read and checked now (format_error names file and field).
[[nodiscard]] document_settings settings_for(const manifest& m, const settings_request& request);

struct capture_request {
  std::vector<std::string> m_impls;   // variants or baselines of the manifest
  bool m_quick = false;               // the quick shapes
  std::optional<std::string> m_ncu;   // the path CMake found; else ncu in PATH, else the toolkit's
  std::string m_metrics;              // "" = the default metric list (docs/profiling.md)
  std::filesystem::path m_work_dir;   // .ncu-rep, .csv and .log of each benchmark
};

// The kernelopt.profile document of the request; status "ok", "partial" or
// "unavailable". Progress goes to `progress`, one line per benchmark.
// Throws std::runtime_error when the benchmark executable is not built.
[[nodiscard]] profile_document capture(const manifest& m, const capture_request& request,
                                       document_settings settings, std::ostream& progress);

// Writes `doc` to `out`, and with several implementations also each one's
// own document beside it (<stem>.<impl>.json), the file `kopt record
// --profile` takes for that variant. Says where on `text`.
void write_documents(const std::filesystem::path& out, const profile_document& doc, std::ostream& text);

// One line per benchmark (bottleneck, roofline gap), then the status.
void print_summary(const profile_document& doc, std::ostream& out);

}  // namespace kopt::profile
