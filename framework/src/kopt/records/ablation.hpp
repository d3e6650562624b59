// The ablation of a variant (`kopt ablate`, docs/ablation.md): each
// switchable METHOD (METHODS <method>=<MACRO>) built with its macro 0,
// checked and timed beside the variant; per method and shape the time it
// saves (attribution) and the method's class. Stored in the variant's record
// (record.hpp, field "ablation"); typed here, used by kopt ablate, the
// report and the static check.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt {

// The classes (docs/ablation.md says how each is decided).
inline constexpr const char* k_ablation_effective = "effective";
inline constexpr const char* k_ablation_ineffective = "ineffective";
inline constexpr const char* k_ablation_unsure = "unsure";
inline constexpr const char* k_ablation_failed = "implementation-failed";

// One shape: the variant (with) against its build without the method,
// timed in the same benchmark processes.
struct ablation_shape {
  std::string m_shape;
  double m_with_ns = 0;     // median over the repetitions
  double m_without_ns = 0;
  double m_attribution_ns = 0;  // without - with: what the method saves (< 0: it costs)
  double m_change = 0;          // without / with - 1: the relative attribution
  std::optional<double> m_noise;    // combined relative noise of the two medians
  std::optional<double> m_p_value;  // the U test's, with >= 9 repetitions a side
  std::string m_verdict;  // kopt compare's verdict of "without" against "with": SLOWER = the method helps
  // A family: the champion point that served the shape, with and without
  // the method (the dispatch's); nullopt for a variant that is not a family.
  std::optional<std::string> m_point;
};

struct ablation_method {
  std::string m_method;
  std::string m_macro;
  std::string m_impl;   // <variant>__no_<method>
  std::string m_class;  // effective | ineffective | unsure | implementation-failed
  // implementation-failed: build | incorrect | crashed | benchmark; else nullopt.
  std::optional<std::string> m_failure;
  std::string m_detail;  // one line: the evidence for the class
  std::optional<double> m_change;  // geomean over shapes of without / with - 1
  std::optional<double> m_noise;   // its noise
  // CUDA: the method's SASS signature in the ablated build's own kernels:
  // present | absent | no_signature | not_checked (host, no cuobjdump, not built).
  std::string m_sass_without = "not_checked";
  std::vector<ablation_shape> m_shapes;
};

struct ablation_result {
  std::string m_utc;
  std::string m_source_sha256;  // the variant's source hash the ablation was measured on
  double m_threshold = 0.02;    // the minimum effect (kopt compare's)
  int m_repetitions = 1;        // benchmark processes
  bool m_quick = false;         // timed on the quick shapes only
  std::vector<ablation_method> m_methods;  // in claim order

  [[nodiscard]] const ablation_method* find(const std::string& method) const;
};

// What building, testing and benchmarking one ablated build gave
// (run/ablation_run.hpp), before the attribution (compare/attribution.hpp).
struct ablation_outcome {
  method_switch m_switch;
  std::optional<std::string> m_failure;  // build | incorrect | crashed | benchmark
  std::string m_failure_detail;          // one line
  std::string m_sass_without = "not_checked";  // as ablation_method's
};

[[nodiscard]] json to_json(const ablation_result& a);
// Throws format_error naming the file and field.
[[nodiscard]] ablation_result ablation_from_json(const json_reader& node);

// Tables (docs/formats.md): the ablation, a method, a shape.
[[nodiscard]] std::vector<format_table> ablation_tables();

}  // namespace kopt
