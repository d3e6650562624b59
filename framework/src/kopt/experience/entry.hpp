// One entry of the experience store (`kernelopt.experience`): what one gated
// record says about the methods it tried, in a form that outlives the
// kernel's records and merges across repositories (docs/agents.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"

namespace kopt {

inline constexpr int k_experience_schema_version = 1;
inline constexpr const char* k_experience_kind = "kernelopt.experience";

// Outcome classes of a change, by its speedup over its parent (seed scoring):
// success > 5 %, neutral 2-5 %, failure < 2 %, a regression, or incorrect.
// `root`: the first variant, nothing to compare with; `unknown`: no speedup
// was measured (the benchmark failed) but nothing says it was wrong either.
inline constexpr double k_success_above = 1.05;
inline constexpr double k_neutral_from = 1.02;

struct experience_source {
  std::string m_repository;  // where the records lived (kopt experience add --origin)
  std::string m_record;      // "<kernel>/<variant>.json" under the records folder
  std::string m_source_hash;
};

struct experience_entry {
  std::string m_id;  // content hash of the record's identity: the file name
  std::string m_kernel;
  std::string m_kernel_class;
  std::string m_dtype;    // the input dtypes joined with ',' ("bf16", "f32,i32"), "unknown"
  std::string m_backend;  // host | cuda
  std::string m_gpu;      // device name as the benchmark saw it, "unknown"
  std::string m_variant;
  std::optional<std::string> m_parent;
  std::string m_bottleneck_before;  // the parent's profile bottleneck, "not profiled"
  std::string m_bottleneck_after;   // this record's
  std::vector<std::string> m_methods;
  std::string m_hypothesis;
  std::optional<double> m_speedup_vs_parent;  // geomean over shapes, same benchmark file
  std::optional<double> m_speedup_vs_best;
  std::string m_decision;  // ACCEPT | REJECT
  std::string m_outcome;   // success | neutral | failure | root | unknown
  std::string m_date;      // the record's created_utc
  experience_source m_source;
};

// success | neutral | failure | root | unknown (the rule above).
[[nodiscard]] std::string outcome_class(bool root, bool correct, std::optional<double> speedup);

// The id: the first 16 hex digits of SHA-256 over kernel, variant, date and
// source hash. The same record added from two clones gets one id.
[[nodiscard]] std::string entry_id(const experience_entry& e);

// The kernel class when none is given: the kernel's name up to its first
// '_' ("softmax_bf16" -> "softmax").
[[nodiscard]] std::string default_kernel_class(const std::string& kernel);

[[nodiscard]] json to_json(const experience_entry& e);
// Checks kind and schema_version; a missing or mistyped key is a
// format_error naming `file` and the JSON path.
[[nodiscard]] experience_entry experience_from_json(const json& doc, const std::string& file);

// Tables (docs/formats.md, checked by formats.doc_tables): the entry and
// its source.
[[nodiscard]] std::vector<format_table> experience_tables();

}  // namespace kopt
