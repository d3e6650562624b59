// The timing settings a benchmark ran with: the manifest's `timing` (from
// the kernel's TIMING), the benchmark result's `kopt.timing` and the
// record's `timing_settings`. The gate requires a record's equal to its
// parent's.
#pragma once

#include <cstdint>
#include <optional>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"

namespace kopt {

struct timing_settings {
  std::int64_t m_min_samples = 0;
  double m_min_time_s = 0;
  double m_max_noise = 0;
  double m_timeout_s = 0;
  std::int64_t m_warmup_samples = 0;
  std::optional<std::int64_t> m_l2_flush_bytes;  // known once a benchmark ran (CUDA)

  // NOTE: l2_flush_bytes is compared only when both sides know it.
  [[nodiscard]] bool same_as(const timing_settings& other) const;
};
[[nodiscard]] json to_json(const timing_settings& settings);
[[nodiscard]] timing_settings timing_settings_from_json(const json_reader& node);

// One table: the manifest's `timing`, the bench's `kopt.timing` (before the
// engine's fields) and the record's `timing_settings` hold these fields.
[[nodiscard]] format_table timing_settings_table();

}  // namespace kopt
