// The timing statistics of one implementation at one shape: the one row
// the benchmark writes (each benchmark's `kopt` object), kopt reads
// (kopt/inputs/bench.hpp), the record keeps (`timing.shapes[]`) and compare
// judges. Its fields sit flat in those objects, beside their own.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"

namespace kopt {

struct timing_stats {
  double m_median_ns = 0;          // > 0: the headline time (Google Benchmark's real_time)
  std::optional<double> m_p10_ns;  // > 0
  std::optional<double> m_p90_ns;  // > 0
  std::optional<double> m_cv;      // stddev / mean, >= 0
  // Relative standard error of the median (bench/sampler.hpp median_noise),
  // >= 0; nullopt when it cannot be estimated (fewer than 2 samples).
  std::optional<double> m_noise;
  std::int64_t m_samples = 0;  // >= 1
};

// Adds median_ns, p10_ns, p90_ns, cv, noise, samples (in that order) to
// the object `row`; an unknown value is null.
void add_to_json(const timing_stats& stats, json& row);
// Reads them from `row`: median_ns > 0 and samples >= 1 required; the
// others null (or absent) or in range. Throws format_error naming file and field.
[[nodiscard]] timing_stats timing_stats_from_json(const json_reader& row);

[[nodiscard]] format_table timing_stats_table();

}  // namespace kopt
