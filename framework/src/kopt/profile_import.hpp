// Nsight Compute results -> kernelopt.profile: ncu's raw CSV page parsed
// into per-kernel metrics, each kernel's bottleneck classified with
// Nsight Compute's own SOL thresholds (rule SOLBottleneck), occupancy and
// warp-stall findings, and the roofline position of each benchmark against
// a measured ceiling (kernelopt.ceilings) or, without one, the GPU's spec
// file (framework/specs). Computation only; cmd_profile.cpp runs ncu.
// docs/profiling.md describes the rules and their sources.
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

// ---- classification -----------------------------------------------------------
// Nsight Compute's rule SOLBottleneck (section SpeedOfLight; the rule file
// SOLBottleneck.py in the sections/ folder of an Nsight Compute install):
// balanced_threshold = 10, latency_bound_threshold = 60,
// no_bound_threshold = 80, waves_threshold = 1 (percent of peak; waves).
struct sol_thresholds {
  static constexpr double k_latency_below_pct = 60;
  static constexpr double k_high_throughput_pct = 80;
  static constexpr double k_balanced_within_pct = 10;
  static constexpr double k_small_grid_waves_below = 1;
};
[[nodiscard]] json thresholds_json();

struct classification {
  // "latency-bound", "small-grid", "compute-bound", "memory-bound", "balanced",
  // "high-throughput (compute)", "high-throughput (memory)" or "unknown".
  std::string m_bottleneck;
  std::string m_ncu_rule;  // the name ncu's rule gives the case: "Latency Issue", "Small Grid", ...
  std::string m_why;       // the numbers that decided it
};
[[nodiscard]] classification classify(const kernel_profile& k);

// Occupancy, stall, tensor-pipe and launch findings, one sentence each.
[[nodiscard]] std::vector<std::string> findings(const kernel_profile& k);

// ---- ceilings for the roofline -------------------------------------------------
struct ceiling_value {
  std::string m_name;    // "copy_bandwidth", "dram_bandwidth", "bf16_tensor", ...
  double m_value = 0;    // B/s or FLOP/s
  std::string m_unit;
  std::string m_source;  // "measured (<file>)" or the spec document's citation
};

// The rates the roofline can use: from a kernelopt.ceilings document
// (measured: copy_bandwidth, fp32_fma, bf16_tensor, ...) and/or a
// kernelopt.spec document (dense rates, dram_bandwidth). Measured wins.
class ceiling_set {
 public:
  void add_ceilings_document(const json& doc, const std::string& file);
  void add_spec_document(const json& doc, const std::string& file);
  [[nodiscard]] std::optional<ceiling_value> find(const std::string& name) const;
  // copy_bandwidth (measured), else dram_bandwidth (spec).
  [[nodiscard]] std::optional<ceiling_value> bandwidth() const;
  [[nodiscard]] bool empty() const { return m_values.empty(); }

 private:
  std::map<std::string, ceiling_value> m_values;
};

// Which compute ceiling a benchmark is measured against, and why: a forced
// name; else by the kernel's input dtype (bf16 -> bf16_tensor, f16 ->
// fp16_tensor, f64 -> fp64), f32 inputs -> tf32_tensor when the tensor pipe
// was active, else fp32_fma.
struct compute_choice {
  std::string m_name;
  std::string m_why;
};
[[nodiscard]] compute_choice choose_compute_ceiling(const std::string& forced, const std::vector<std::string>& input_dtypes,
                                                    const std::vector<kernel_profile>& kernels);

struct roofline_point {
  double m_flops = 0;                 // FLOPS of the work model at the shape
  double m_bytes = 0;                 // BYTES of the work model
  double m_intensity = 0;             // flops / bytes (FLOP/B)
  std::optional<double> m_dram_intensity;  // flops / measured DRAM bytes
  double m_duration_ns = 0;           // the kernels' summed gpu__time_duration
  double m_achieved_flops = 0;        // FLOP/s
  double m_achieved_bytes = 0;        // B/s (model bytes)
  ceiling_value m_compute;
  ceiling_value m_bandwidth;
  double m_attainable_flops = 0;      // min(compute, intensity * bandwidth)
  std::string m_bound;                // "memory" or "compute": which roof is lower here
  double m_fraction = 0;              // achieved / attainable
  double m_gap = 0;                   // 1 - fraction
};
[[nodiscard]] roofline_point roofline(double flops, double bytes, std::optional<double> dram_bytes, double duration_ns,
                                      const ceiling_value& compute, const ceiling_value& bandwidth);
[[nodiscard]] json to_json(const roofline_point& p);

// ---- documents ----------------------------------------------------------------
[[nodiscard]] json kernel_json(const kernel_profile& k);

// What one benchmark's kernels add up to: duration and DRAM bytes summed,
// the bottleneck of the longest kernel.
struct benchmark_summary {
  std::optional<double> m_duration_ns;
  std::optional<double> m_dram_bytes;
  classification m_class;
  std::string m_dominant_kernel;
  double m_dominant_share = 0;  // of the summed duration
  std::vector<std::string> m_findings;
};
[[nodiscard]] benchmark_summary summarize(const std::vector<kernel_profile>& kernels);

// The bottleneck over several benchmarks (shapes) of one implementation:
// the one named most often, ties to the earliest; "mixed: a, b" is never
// produced, the per-shape values stay in "benchmarks".
[[nodiscard]] std::string overall_bottleneck(const std::vector<std::string>& per_shape);

// Why profiling is not possible, from what ncu printed: the ERR_NVGPUCTRPERM
// line (no permission to read counters), another ==ERROR== line, or "no
// kernels were profiled". nullopt when nothing says so.
[[nodiscard]] std::optional<std::string> ncu_problem(const std::string& output);
// Whether the problem makes every further run pointless (counters not readable).
[[nodiscard]] bool is_permission_problem(const std::string& output);

// ---- device -> spec file -------------------------------------------------------
// The spec file (framework/specs/*.json, kind kernelopt.spec) whose "match"
// regexes match `device_name` as cudaGetDeviceProperties gives it ("NVIDIA
// H100 80GB HBM3"); nullopt when none does. Throws format_error on a
// malformed spec file.
[[nodiscard]] std::optional<std::filesystem::path> find_spec(const std::filesystem::path& specs_dir,
                                                             const std::string& device_name);

// The unavailable document: {"status": "unavailable", "reason": ...}.
[[nodiscard]] json unavailable_json(const std::string& kernel, const std::string& reason);

// ---- the kernelopt.profile document ------------------------------------------
// One benchmark (`<k>/<impl>/<shape>`, one launch profiled by ncu).
struct benchmark_input {
  std::string m_name;
  std::string m_impl;
  std::string m_shape;            // "rows=4096,cols=4096"
  std::optional<std::string> m_csv;  // ncu's raw CSV page of the launch; nullopt: see m_error
  std::string m_csv_file;         // where it came from, for messages
  std::string m_error;            // why there is no CSV
  std::string m_report;           // the .ncu-rep, or ""
};

struct document_settings {
  std::string m_kernel;
  std::string m_flops;   // FLOPS / BYTES expressions of the manifest ("" = not declared)
  std::string m_bytes;
  std::vector<std::string> m_input_dtypes;  // dtypes of the in / inout tensors
  std::optional<json> m_ceilings;           // a kernelopt.ceilings document
  std::string m_ceilings_file;
  std::filesystem::path m_specs_dir;        // framework/specs ("" = none)
  std::string m_device;                     // device name when the CSV lacks it ("" = unknown)
  std::string m_compute_ceiling;            // forced compute ceiling ("" = choose)
  json m_tool = json::object();             // {"ncu": path, "version": ...}
  std::vector<std::string> m_command;       // the ncu command of one benchmark, for the record
};

// Every benchmark's kernels, classification, findings and roofline; per
// implementation the overall bottleneck and its roofline gaps ("impls"), and
// at the top level too when there is only one implementation (`kopt record`
// embeds such a file: report and gate read "bottleneck" and "roofline").
// status: "ok" (every benchmark profiled), "partial", or "unavailable" (none).
[[nodiscard]] json build_document(const document_settings& settings, const std::vector<benchmark_input>& inputs);

// The single-implementation document of `impl` cut out of a multi-impl one.
// Throws format_error naming `file` and the field when `doc` is malformed.
[[nodiscard]] json impl_document(const json& doc, const std::string& impl, const std::string& file);

}  // namespace kopt::profile
