// Nsight Compute's raw CSV page (`ncu --import R --csv --page raw
// --print-units base`) parsed into one kernel_profile per profiled launch,
// and what ncu's output says when profiling is not possible. Parsing only;
// profile/capture.hpp runs ncu. docs/profiling.md describes the metrics.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"

namespace kopt::profile {

// ---- ncu --csv --page raw ---------------------------------------------------
// A header row of column names (the info columns "ID", "Kernel Name", ...
// then one column per metric name), optionally a units row (its "ID" cell
// empty), then one row per profiled kernel launch. Lines that are not CSV
// rows (==PROF== messages, the application's output) are skipped.
struct csv_table {
  std::vector<std::string> m_header;
  std::vector<std::string> m_units;  // empty strings when ncu printed no units row
  std::vector<std::vector<std::string>> m_rows;

  // Column index of `name`, or -1.
  [[nodiscard]] int column(const std::string& name) const;
};

// Throws format_error ("<what>: no ncu CSV header ...") when there is no
// header row; `what` names the input in messages.
[[nodiscard]] csv_table parse_csv(const std::string& text, const std::string& what);

// "1,234,567.5" -> 1234567.5 (ncu groups thousands with ','); nullopt for
// "", "n/a" and anything else that is not a number.
[[nodiscard]] std::optional<double> parse_number(const std::string& text);

// ---- one profiled kernel ------------------------------------------------------
struct stall {
  std::string m_reason;  // "long_scoreboard"
  double m_cycles_per_issue = 0;  // smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio
};

struct kernel_profile {
  std::string m_id;
  std::string m_name;  // "Kernel Name" (demangled, as ncu prints it)
  std::string m_device;  // device__attribute_display_name, else the "Device" column
  std::optional<double> m_duration_ns;         // gpu__time_duration.sum
  std::optional<double> m_dram_bytes;          // dram__bytes.sum
  std::optional<double> m_sol_compute_pct;     // sm__throughput.avg.pct_of_peak_sustained_elapsed
  std::optional<double> m_sol_memory_pct;      // gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
  std::optional<double> m_achieved_occupancy_pct;     // sm__warps_active.avg.pct_of_peak_sustained_active
  std::optional<double> m_theoretical_occupancy_pct;  // sm__maximum_warps_per_active_cycle_pct
  std::optional<double> m_tensor_pipe_pct;     // sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
  std::optional<double> m_waves_per_sm;        // launch__waves_per_multiprocessor
  std::optional<double> m_grid_size;           // launch__grid_size (blocks)
  std::optional<double> m_block_size;          // launch__block_size (threads)
  std::optional<double> m_registers_per_thread;
  std::optional<double> m_static_smem_bytes;
  std::optional<double> m_dynamic_smem_bytes;
  std::optional<double> m_sm_count;            // device__attribute_multiprocessor_count
  std::string m_grid;   // "Grid Size" column: "(128, 1, 1)"
  std::string m_block;  // "Block Size" column
  std::map<std::string, double> m_occupancy_limits;  // "registers" -> blocks per SM (launch__occupancy_limit_*)
  std::vector<stall> m_stalls;  // largest first, "selected" excluded
};

// One kernel_profile per data row. Durations in ns and sizes in bytes
// whatever unit ncu printed them in (units row).
[[nodiscard]] std::vector<kernel_profile> kernels_from_table(const csv_table& table);

// Why profiling is not possible, from what ncu printed: the ERR_NVGPUCTRPERM
// line (no permission to read counters), another ==ERROR== line, or "no
// kernels were profiled". nullopt when nothing says so.
[[nodiscard]] std::optional<std::string> ncu_problem(const std::string& output);
// Whether the problem makes every further run pointless (counters not readable).
[[nodiscard]] bool is_permission_problem(const std::string& output);

}  // namespace kopt::profile
