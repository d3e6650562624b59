// The kernelopt.profile document (docs/profiling.md, docs/formats.md):
// every benchmark's kernels, classification, findings and roofline, per
// implementation and overall; and the document that says why there is no
// profile. One type, profile_document, written by `kopt profile` /
// `profile-import` and read back by them (the per-implementation cut),
// and by `kopt record --profile`, whose record embeds it (records/record.hpp).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/json_io.hpp"
#include "core/shape.hpp"
#include "formats/field_doc.hpp"
#include "kopt/profile/bottleneck.hpp"
#include "kopt/profile/roofline.hpp"

namespace kopt::profile {

inline constexpr int k_profile_schema_version = 1;

// One profiled kernel as the document keeps it: ncu's metrics (null when
// ncu did not report one), the three largest stalls, its launch, and how it
// was classified (docs/profiling.md).
struct profiled_kernel {
  std::string m_id;
  std::string m_name;
  std::optional<double> m_duration_ns;
  std::optional<double> m_dram_bytes;
  std::optional<double> m_sol_compute_pct;
  std::optional<double> m_sol_memory_pct;
  std::optional<double> m_achieved_occupancy_pct;
  std::optional<double> m_theoretical_occupancy_pct;
  std::optional<double> m_tensor_pipe_pct;
  std::vector<stall> m_top_stalls;
  // launch:
  std::string m_grid;   // "(128, 1, 1)"
  std::string m_block;
  std::optional<double> m_grid_size;
  std::optional<double> m_block_size;
  std::optional<double> m_registers_per_thread;
  std::optional<double> m_static_smem_bytes;
  std::optional<double> m_dynamic_smem_bytes;
  std::optional<double> m_waves_per_sm;
  std::optional<double> m_sm_count;
  std::vector<std::pair<std::string, double>> m_occupancy_limit_blocks;  // "registers" -> blocks per SM
  // classification:
  std::string m_bottleneck;
  std::string m_ncu_rule;
  std::string m_why;
  std::vector<std::string> m_findings;
};
// The kernel ncu measured, classified (bottleneck.hpp).
[[nodiscard]] profiled_kernel profiled_kernel_of(const kernel_profile& k);
[[nodiscard]] json to_json(const profiled_kernel& k);
// Throws format_error naming the file and the field.
[[nodiscard]] profiled_kernel profiled_kernel_from_json(const json_reader& node);

// One implementation's roofline gap at one shape.
struct roofline_gap {
  std::string m_shape;
  double m_gap = 0;     // 1 - achieved / attainable
  std::string m_bound;  // "memory" | "compute"
};

// An implementation overall: its bottleneck over the shapes and its gaps.
struct impl_profile {
  std::string m_bottleneck = "not profiled";
  std::vector<roofline_gap> m_roofline;
};

// One benchmark (`<k>/<impl>/<shape>`) as profiled.
struct profiled_benchmark {
  std::string m_name;
  std::string m_impl;
  std::string m_shape;
  std::optional<std::string> m_report;  // the .ncu-rep
  std::string m_status = "failed";      // ok | failed
  std::optional<std::string> m_error;   // failed: why
  // The rest when ok:
  std::vector<profiled_kernel> m_kernels;
  std::optional<double> m_duration_ns;
  std::optional<double> m_dram_bytes;
  std::string m_bottleneck;
  std::string m_ncu_rule;
  std::string m_why;
  std::string m_dominant_kernel;
  std::optional<double> m_flops;  // the work model at the shape
  std::optional<double> m_bytes;
  std::optional<double> m_dram_bytes_over_model;
  std::optional<roofline_point> m_roofline;   // nullopt (null) without both roofs
  std::optional<std::string> m_compute_why;   // the roofline's compute_ceiling.why: why that ceiling
  std::optional<std::string> m_roofline_unavailable;
  std::vector<std::string> m_findings;
};

// The profiler that ran: ncu's path (or `imported`) and its version.
struct profile_tool {
  std::string m_ncu;
  std::string m_version;
};

// Which files gave the roofline's roofs (each absent when none did).
struct roof_sources {
  std::optional<std::string> m_ceilings_file;  // --ceilings
  std::optional<std::string> m_spec_file;      // the device's spec file
  std::optional<std::string> m_spec_note;      // why no spec file matched
};

// What a profiling run adds to the status (absent from the document that
// says why nothing was profiled).
struct profile_run {
  std::string m_created_utc;
  std::string m_device = "unknown";
  profile_tool m_tool;
  std::vector<std::string> m_command;  // one benchmark's ncu command
  profile_thresholds m_thresholds;     // the bottleneck rules' thresholds
  roof_sources m_ceilings;
  std::vector<profiled_benchmark> m_benchmarks;
  std::vector<std::pair<std::string, impl_profile>> m_impls;  // in benchmark order
  // With a single implementation its name; the document then repeats its
  // bottleneck and roofline at the top level (report and gate read those).
  std::optional<std::string> m_impl;

  [[nodiscard]] const impl_profile* find_impl(const std::string& impl) const;
};

struct profile_document {
  std::string m_kernel;
  std::string m_status = "unavailable";  // ok | partial | unavailable
  std::optional<std::string> m_reason;   // why not ok
  std::optional<profile_run> m_run;      // nullopt: nothing was profiled (the short document)
};

[[nodiscard]] json to_json(const profile_document& doc);
// Checks kind, schema_version, statuses and every typed field. Throws
// format_error naming the file and the field.
[[nodiscard]] profile_document profile_document_from_json(const json_reader& root);

// Reads, checks kind and schema_version, converts (`kopt record --profile`).
// Throws format_error naming the file and the field.
[[nodiscard]] profile_document read_profile_document(const std::filesystem::path& path);

// The overall profile of the document's single implementation (its
// bottleneck and roofline gaps: what the report, gate and `kopt status` read
// of a record's profile); nullptr when nothing was profiled or the document
// covers several implementations.
[[nodiscard]] const impl_profile* single_impl(const profile_document& doc);

// Tables (docs/formats.md): the document, its tool, thresholds and roof
// sources, a benchmark, an implementation, a roofline gap, a benchmark's
// roofline point and its ceilings.
[[nodiscard]] std::vector<format_table> profile_tables();

// The unavailable document: {"status": "unavailable", "reason": ...}.
[[nodiscard]] profile_document unavailable_document(const std::string& kernel, const std::string& reason);

// One benchmark (`<k>/<impl>/<shape>`, one launch profiled by ncu).
struct benchmark_input {
  std::string m_name;
  std::string m_impl;
  shape m_shape;                  // "rows=4096,cols=4096", parsed once
  std::optional<std::string> m_csv;  // ncu's raw CSV page of the launch; nullopt: see m_error
  std::string m_csv_file;         // where it came from, for messages
  std::string m_error;            // why there is no CSV
  std::string m_report;           // the .ncu-rep, or ""
};

struct document_settings {
  std::string m_kernel;
  std::string m_flops;   // FLOPS / BYTES expressions of the manifest ("" = not declared)
  std::string m_bytes;
  std::vector<std::string> m_input_dtypes;  // dtypes of the in / inout tensors
  std::optional<ceilings_file> m_ceilings;  // --ceilings
  std::string m_ceilings_file;
  std::filesystem::path m_specs_dir;        // framework/specs ("" = none)
  std::string m_device;                     // device name when the CSV lacks it ("" = unknown)
  std::string m_compute_ceiling;            // forced compute ceiling ("" = choose)
  profile_tool m_tool;
  std::vector<std::string> m_command;       // the ncu command of one benchmark, for the record
};

// Every benchmark's kernels, classification, findings and roofline; per
// implementation the overall bottleneck and its roofline gaps ("impls"), and
// at the top level too when there is only one implementation (`kopt record`
// embeds such a file: report and gate read "bottleneck" and "roofline").
// status: "ok" (every benchmark profiled), "partial", or "unavailable" (none).
[[nodiscard]] profile_document build_document(const document_settings& settings,
                                              const std::vector<benchmark_input>& inputs);

// The single-implementation document of `impl` cut out of a multi-impl one.
[[nodiscard]] profile_document impl_document(const profile_document& doc, const std::string& impl);

}  // namespace kopt::profile
