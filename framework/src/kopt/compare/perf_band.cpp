#include "kopt/compare/perf_band.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"

namespace kopt {
namespace {

std::string uuid_of(const std::optional<gpu_info>& gpu) { return gpu ? gpu->uuid_or_empty() : std::string(); }

}  // namespace

double spread_band(double spread, std::int64_t runs) {
  return k_perf_spread_sigmas * spread * std::sqrt(1.0 + 1.0 / static_cast<double>(std::max<std::int64_t>(runs, 1)));
}

perf_reference perf_reference_for(const record& best, const std::optional<perf_baseline>& baseline,
                                  const std::string& baseline_file, const std::string& this_gpu,
                                  double threshold, bool record_same_model) {
  perf_reference ref;
  if (baseline) {
    const perf_baseline& b = *baseline;
    // A board not among those that ran the baseline (or one we cannot name
    // while the baseline can) is another board.
    ref.m_other_board = !b.m_gpus.empty() &&
                        (this_gpu.empty() || std::find(b.m_gpus.begin(), b.m_gpus.end(), this_gpu) == b.m_gpus.end());
    const double allowance = ref.m_other_board ? k_board_allowance : 0.0;
    ref.m_source = "baseline " + baseline_file + " (" + std::to_string(b.m_runs) + " runs on " + b.m_device + ")";
    for (const baseline_shape& s : b.m_shapes) {
      timing_point p{best.m_variant, s.m_shape, {}};
      p.m_stats.m_median_ns = s.m_median_ns;
      p.m_stats.m_samples = b.m_runs;
      // The median of N runs: its standard error from their spread.
      p.m_stats.m_noise = 1.2533 * s.m_spread / std::sqrt(static_cast<double>(b.m_runs));
      p.m_band = std::max({threshold, spread_band(s.m_spread, b.m_runs), allowance});
      ref.m_points.push_back(p);
    }
    std::vector<std::string> from_record;
    if (record_same_model) {
      const std::string recorded_gpu = uuid_of(best.m_timing.m_gpu);
      const bool record_other_board = !this_gpu.empty() && recorded_gpu != this_gpu;
      for (const shape_timing& s : best.m_timing.m_shapes) {
        if (s.m_error || b.find(s.m_shape.text()) != nullptr) continue;
        timing_point p{best.m_variant, s.m_shape.text(), s.m_stats};
        p.m_band = std::max(threshold, record_other_board ? k_board_allowance : 0.0);
        ref.m_points.push_back(p);
        from_record.push_back(s.m_shape.text());
      }
    }
    ref.m_geomean_band = std::max({threshold, spread_band(b.m_geomean_spread, b.m_runs), allowance});
    if (!from_record.empty()) {
      // Mixed references: the geomean's band is the widest of its rows'.
      for (const timing_point& p : ref.m_points) ref.m_geomean_band = std::max(*ref.m_geomean_band, *p.m_band);
      ref.m_notes.push_back("not in the baseline, from the record (band: the threshold" +
                            std::string(allowance > 0 ? " or the board allowance" : "") + "): " +
                            join(from_record, ", "));
    }
    ref.m_notes.push_back("band per shape = max(threshold " + format_percent(threshold) + ", " +
                          format_number(k_perf_spread_sigmas, 2) + " x run-to-run spread x sqrt(1 + 1/" +
                          std::to_string(b.m_runs) + ")" +
                          (ref.m_other_board ? ", board allowance " + format_percent(k_board_allowance) +
                                                   " (this board did not run the baseline)"
                                             : "") +
                          ")");
    return ref;
  }
  const std::string recorded_gpu = uuid_of(best.m_timing.m_gpu);
  // A record that does not name its board (made before kopt.gpu existed)
  // may be from any board of the model: the allowance applies.
  ref.m_other_board = !this_gpu.empty() && recorded_gpu != this_gpu;
  const double allowance = ref.m_other_board ? k_board_allowance : 0.0;
  ref.m_source = "record " + best.m_variant + " (one run)";
  for (const shape_timing& s : best.m_timing.m_shapes) {
    if (s.m_error) continue;
    timing_point p{best.m_variant, s.m_shape.text(), s.m_stats};
    p.m_band = std::max(threshold, allowance);
    ref.m_points.push_back(p);
  }
  ref.m_geomean_band = std::max(threshold, allowance);
  ref.m_notes.push_back("no baseline for " + (best.m_timing.m_device.empty() ? std::string("this device") : best.m_timing.m_device) +
                        ": the run-to-run spread is not measured (kopt baseline measures it); band = max(threshold " +
                        format_percent(threshold) +
                        (ref.m_other_board ? ", board allowance " + format_percent(k_board_allowance) +
                                                 " (the record was timed on " +
                                                 (recorded_gpu.empty() ? "a board it does not name" : recorded_gpu) + ")"
                                           : "") +
                        ")");
  return ref;
}

}  // namespace kopt
