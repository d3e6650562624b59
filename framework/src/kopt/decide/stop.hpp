// The loop's stop conditions, evaluated mechanically on the records of one
// kernel (`kopt status`, the report). Computation only; cli renders it.
//
// A condition holds, in this order (the first one that holds is the reason):
//   target_met      every TARGET holds on every shape of the best
//   near_peak       the best's profile has a roofline and every gap (1 -
//                   achieved / attainable, against the roof that binds at
//                   the kernel's intensity) is below k_roofline_gap
//   max_iterations  the kernel declares MAX_ITERATIONS and that many
//                   variants have a record (masked ones count: they ran)
//   stagnation      the newest `stagnation` records (masked skipped) were
//                   all rejected
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/records/record_store.hpp"

namespace kopt {

inline constexpr int k_status_schema_version = 1;
inline constexpr int k_default_stagnation = 2;  // as the gate's notice

struct stop_condition {
  std::string m_name;  // target_met | near_peak | max_iterations | stagnation
  bool m_holds = false;
  bool m_applies = true;  // false: not declared / no data (m_detail says which)
  std::string m_detail;
};

struct stop_status {
  std::string m_kernel;
  std::optional<std::string> m_best;
  std::optional<std::string> m_newest;
  std::size_t m_recorded = 0;
  std::size_t m_declared = 0;
  bool m_stop = false;
  std::optional<std::string> m_reason;  // the first condition that holds
  std::vector<stop_condition> m_conditions;
  std::string m_bottleneck;                  // the best's (else the newest's) profile bottleneck
  std::optional<std::string> m_next_variant;  // declared, not yet recorded
  std::string m_next_step;                   // one sentence
  std::vector<std::string> m_rejections;     // the rejections in a row, oldest first
  // uncounted_notes: one per accepted record that does not count now (stale
  // or inconsistent) and per inconsistent record; empty when every record
  // counts as it was recorded.
  std::vector<std::string> m_uncounted;
  // "target met (best: v4)", "stagnation: 2 rejections in a row (v2, v3): ...", "in progress: ..."
  [[nodiscard]] std::string summary() const;
};

[[nodiscard]] stop_status evaluate_stop(const manifest& m, const record_set& records,
                                        int stagnation = k_default_stagnation);

[[nodiscard]] std::string render_status_text(const stop_status& s);
// kind kernelopt.status, schema_version k_status_schema_version;
// `recommendations` is a kernelopt.recommend document or null.
[[nodiscard]] json status_json(const stop_status& s, const json& recommendations);

}  // namespace kopt
