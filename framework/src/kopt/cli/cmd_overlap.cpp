// kopt overlap: from the bench JSON of benchmark runs (each names its GPU
// and when it held it), whether two ever ran on one GPU at the same time.
// The evidence for docs/multi-gpu.md's promise; intervals are the process's
// benchmark loop, wall clock, so runs on different hosts cannot be compared.
#include <algorithm>
#include <cstdio>
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/cli/json_output.hpp"
#include "kopt/run/gpu_schedule.hpp"

namespace kopt::cli {
namespace {

std::string seconds(double ns) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", ns / 1e9);
  return text;
}

// kernelopt.overlap (docs/formats.md): every run, every overlapping pair.
int print_json(const std::vector<gpu_interval>& intervals, const std::vector<interval_overlap>& overlaps,
               std::ostream& out) {
  overlap_output doc;
  doc.m_runs = intervals;
  for (const interval_overlap& o : overlaps) {
    doc.m_overlaps.push_back({o.m_first->m_gpu, o.m_first->m_file, o.m_second->m_file, o.m_overlap_ns});
  }
  out << to_json(doc).dump(2) << "\n";
  return overlaps.empty() ? k_exit_ok : k_exit_fail;
}

}  // namespace

int cmd_overlap(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  if (args.positionals().empty()) throw usage_error("expected at least one bench JSON file");
  std::vector<gpu_interval> intervals;
  for (const std::string& file : args.positionals()) intervals.push_back(read_gpu_interval(file));
  const std::int64_t origin =
      std::min_element(intervals.begin(), intervals.end(), [](const gpu_interval& a, const gpu_interval& b) {
        return a.m_start_ns < b.m_start_ns;
      })->m_start_ns;

  const std::vector<interval_overlap> overlaps = find_overlaps(intervals);
  if (args.has("--json")) return print_json(intervals, overlaps, out);
  for (const auto& [gpu, list] : group_by_gpu(intervals)) {
    double busy = 0;  // a double: a sum of hostile int64 spans could overflow
    for (const gpu_interval* i : list) busy += static_cast<double>(i->m_end_ns - i->m_start_ns);
    out << "GPU " << gpu << ": " << list.size() << " benchmark run(s), " << seconds(busy) << " s timing\n";
    for (const gpu_interval* i : list) {
      out << "  " << seconds(static_cast<double>(i->m_start_ns - origin)) << " .. "
          << seconds(static_cast<double>(i->m_end_ns - origin)) << " s  "
          << (i->m_ctest_allocation.empty() ? "(no CTest allocation)" : i->m_ctest_allocation) << "  " << i->m_file
          << "\n";
    }
  }
  for (const interval_overlap& o : overlaps) {
    out << "OVERLAP on GPU " << o.m_first->m_gpu << ": " << o.m_first->m_file << " and " << o.m_second->m_file
        << " shared " << seconds(static_cast<double>(o.m_overlap_ns)) << " s\n";
  }
  out << (overlaps.empty() ? "no two benchmark runs overlapped on one GPU\n"
                           : std::to_string(overlaps.size()) + " overlapping pair(s)\n");
  return overlaps.empty() ? k_exit_ok : k_exit_fail;
}

}  // namespace kopt::cli
