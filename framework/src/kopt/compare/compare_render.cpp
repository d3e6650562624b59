#include "core/format.hpp"
#include "kopt/compare/verdict.hpp"

namespace kopt {

std::string render_compare_markdown(const compare_result& result, const std::string& base,
                                    const std::string& next) {
  std::string out = "Comparing " + base + " (base) with " + next + " (new); threshold " +
                    format_percent(result.m_threshold) + ", noise bound " + format_number(k_noise_sigmas, 2) +
                    " x combined noise; with " + std::to_string(k_utest_min_repetitions) +
                    "+ repetitions a side, the U test at alpha " + format_number(k_utest_alpha, 2) + "\n\n";
  // A band column only when some row's band is not the threshold (kopt perf's measured bands).
  bool bands = result.m_geomean && result.m_geomean->m_threshold != result.m_threshold;
  for (const verdict_row& row : result.m_rows) bands = bands || row.m_threshold != result.m_threshold;
  out += std::string("| impl | shape | base | new | change | noise | ") + (bands ? "band | " : "") +
         "reps | p (U test) | verdict |\n";
  out += std::string("|---|---|---:|---:|---:|---:|") + (bands ? "---:|" : "") + "---:|---:|---|\n";
  auto line = [&](const verdict_row& row) {
    out += "| " + row.m_impl + " | " + row.m_shape + " | " + format_time_ns(row.m_base_ns) + " | " +
           format_time_ns(row.m_new_ns) + " | " + format_percent(row.m_change, true) + " | " +
           format_percent(row.m_noise) + " | " + (bands ? format_percent(row.m_threshold) + " | " : "") +
           (row.m_base_repetitions == 0 ? std::string("-")
                                           : std::to_string(row.m_base_repetitions) + "/" +
                                                 std::to_string(row.m_new_repetitions)) +
           " | " + (row.m_p_value ? format_number(*row.m_p_value, 3) : "-") +
           " | " + to_string(row.m_verdict) + " |\n";
  };
  for (const verdict_row& row : result.m_rows) line(row);
  if (result.m_geomean) line(*result.m_geomean);
  if (!result.m_only_base.empty()) out += "\nOnly in base: " + join(result.m_only_base, "; ") + "\n";
  if (!result.m_only_new.empty()) out += "\nOnly in new: " + join(result.m_only_new, "; ") + "\n";
  out += std::string("\n") + (result.any_slower()
                                  ? "SLOWER: at least one row got slower beyond threshold and noise\n"
                                  : "no SLOWER row\n");
  return out;
}

}  // namespace kopt
