// The kernelopt.profile document (docs/formats.md): every benchmark's
// kernels, classification, findings and roofline, per implementation and
// overall; and the document that says why there is no profile.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "core/shape.hpp"
#include "kopt/profile/bottleneck.hpp"
#include "kopt/profile/roofline.hpp"

namespace kopt::profile {

[[nodiscard]] json kernel_json(const kernel_profile& k);

// The unavailable document: {"status": "unavailable", "reason": ...}.
[[nodiscard]] json unavailable_json(const std::string& kernel, const std::string& reason);

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
  json m_tool = json::object();             // {"ncu": path, "version": ...}
  std::vector<std::string> m_command;       // the ncu command of one benchmark, for the record
};

// Every benchmark's kernels, classification, findings and roofline; per
// implementation the overall bottleneck and its roofline gaps ("impls"), and
// at the top level too when there is only one implementation (`kopt record`
// embeds such a file: report and gate read "bottleneck" and "roofline").
// status: "ok" (every benchmark profiled), "partial", or "unavailable" (none).
[[nodiscard]] json build_document(const document_settings& settings, const std::vector<benchmark_input>& inputs);

// The single-implementation document of `impl` cut out of a multi-impl one.
// Throws format_error naming `file` and the field when `doc` is malformed.
[[nodiscard]] json impl_document(const json& doc, const std::string& impl, const std::string& file);

}  // namespace kopt::profile
