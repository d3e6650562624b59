#include "formats/timing_settings.hpp"

namespace kopt {

bool timing_settings::same_as(const timing_settings& other) const {
  const bool l2_same =
      !m_l2_flush_bytes || !other.m_l2_flush_bytes || *m_l2_flush_bytes == *other.m_l2_flush_bytes;
  return m_min_samples == other.m_min_samples && m_min_time_s == other.m_min_time_s &&
         m_max_noise == other.m_max_noise && m_timeout_s == other.m_timeout_s &&
         m_warmup_samples == other.m_warmup_samples && l2_same;
}

json to_json(const timing_settings& s) {
  return {{"min_samples", s.m_min_samples},
          {"min_time_s", s.m_min_time_s},
          {"max_noise", s.m_max_noise},
          {"timeout_s", s.m_timeout_s},
          {"warmup_samples", s.m_warmup_samples},
          {"l2_flush_bytes", s.m_l2_flush_bytes ? json(*s.m_l2_flush_bytes) : json(nullptr)}};
}

timing_settings timing_settings_from_json(const json_reader& node) {
  timing_settings s;
  s.m_min_samples = node.at("min_samples").as_count();
  s.m_min_time_s = node.at("min_time_s").as_non_negative();
  s.m_max_noise = node.at("max_noise").as_non_negative();
  s.m_timeout_s = node.at("timeout_s").as_positive();
  s.m_warmup_samples = node.at("warmup_samples").as_non_negative_integer();
  if (node.has("l2_flush_bytes")) s.m_l2_flush_bytes = node.at("l2_flush_bytes").as_non_negative_integer();
  return s;
}

format_table timing_settings_table() {
  return {"timing settings",
          {{"min_samples", "integer", "samples before sampling may stop (>= 1)"},
           {"min_time_s", "number", "accumulated sample time before sampling may stop"},
           {"max_noise", "number", "sampling stops once the median's noise is below this"},
           {"timeout_s", "number", "sampling stops after this much wall time (> 0)"},
           {"warmup_samples", "integer", "discarded calls before sampling"},
           {"l2_flush_bytes", "integer | null",
            "bytes written to flush L2 before each sample (CUDA); `null` on the host"}}};
}

}  // namespace kopt
