#include "kopt/profile_import.hpp"

#include "core/expr.hpp"
#include "kopt/ceilings.hpp"
#include "kopt/targets.hpp"
#include "kopt/utc.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>

namespace kopt::profile {
namespace {

// One CSV record; quoted fields may hold commas and doubled quotes.
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.push_back(cell);
      cell.clear();
    } else if (c != '\r') {
      cell += c;
    }
  }
  cells.push_back(cell);
  return cells;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Multiplier to ns / bytes for the units ncu prints (base or auto-scaled).
std::optional<double> time_scale(const std::string& unit) {
  const std::string u = lower(unit);
  if (u == "nsecond" || u == "ns" || u.empty()) return 1.0;
  if (u == "usecond" || u == "us") return 1e3;
  if (u == "msecond" || u == "ms") return 1e6;
  if (u == "second" || u == "s") return 1e9;
  return std::nullopt;
}

std::optional<double> byte_scale(const std::string& unit) {
  const std::string u = lower(unit.substr(0, unit.find('/')));  // "byte/block" -> "byte"
  if (u == "byte" || u == "b" || u.empty()) return 1.0;
  if (u == "kbyte" || u == "kb") return 1e3;
  if (u == "mbyte" || u == "mb") return 1e6;
  if (u == "gbyte" || u == "gb") return 1e9;
  if (u == "tbyte" || u == "tb") return 1e12;
  if (u == "kibyte" || u == "kib") return 1024.0;
  if (u == "mibyte" || u == "mib") return 1024.0 * 1024.0;
  if (u == "gibyte" || u == "gib") return 1024.0 * 1024.0 * 1024.0;
  return std::nullopt;
}

std::string format(double value, int digits = 3) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

std::string percent(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", value);
  return buffer;
}

json optional_json(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

// A row's cells by metric name, scaled by the units row where it matters.
class row_reader {
 public:
  row_reader(const csv_table& table, const std::vector<std::string>& row) : m_table(table), m_row(row) {}

  [[nodiscard]] std::string text(const std::string& name) const {
    const int i = m_table.column(name);
    return i < 0 || static_cast<std::size_t>(i) >= m_row.size() ? std::string() : m_row[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] std::string unit(const std::string& name) const {
    const int i = m_table.column(name);
    return i < 0 || static_cast<std::size_t>(i) >= m_table.m_units.size() ? std::string()
                                                                           : m_table.m_units[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] std::optional<double> number(const std::string& name) const { return parse_number(text(name)); }
  [[nodiscard]] std::optional<double> nanoseconds(const std::string& name) const {
    const auto value = number(name);
    const auto scale = time_scale(unit(name));
    if (!value || !scale) return std::nullopt;
    return *value * *scale;
  }
  [[nodiscard]] std::optional<double> bytes(const std::string& name) const {
    const auto value = number(name);
    const auto scale = byte_scale(unit(name));
    if (!value || !scale) return std::nullopt;
    return *value * *scale;
  }

 private:
  const csv_table& m_table;
  const std::vector<std::string>& m_row;
};

}  // namespace

int csv_table::column(const std::string& name) const {
  for (std::size_t i = 0; i < m_header.size(); ++i) {
    if (m_header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

csv_table parse_csv(const std::string& text, const std::string& what) {
  csv_table table;
  std::istringstream lines(text);
  std::string line;
  bool have_header = false;
  bool units_checked = false;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] != '"') continue;
    std::vector<std::string> cells = split_csv_line(valid_utf8(line));
    if (!have_header) {
      if (cells.empty() || cells[0] != "ID") continue;
      table.m_header = std::move(cells);
      have_header = true;
      continue;
    }
    if (!units_checked) {
      units_checked = true;
      if (!cells.empty() && cells[0].empty()) {
        table.m_units = std::move(cells);
        continue;
      }
    }
    if (cells.size() != table.m_header.size()) {
      throw format_error(what + ": a CSV row has " + std::to_string(cells.size()) + " cells, the header " +
                         std::to_string(table.m_header.size()));
    }
    table.m_rows.push_back(std::move(cells));
  }
  if (!have_header) {
    throw format_error(what + ": no ncu CSV header (a row starting with \"ID\"): not the output of "
                              "ncu --csv --page raw");
  }
  if (table.m_units.empty()) table.m_units.assign(table.m_header.size(), "");
  return table;
}

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// ^-?[0-9]{1,3}(,[0-9]{3})+(\.[0-9]*)?$ : thousands grouped with ','.
bool is_grouped(const std::string& t) {
  std::size_t i = !t.empty() && t[0] == '-' ? 1 : 0;
  const std::size_t lead = i;
  while (i < t.size() && is_digit(t[i])) ++i;
  if (i == lead || i - lead > 3) return false;
  std::size_t groups = 0;
  while (i < t.size() && t[i] == ',') {
    if (i + 3 >= t.size() || !is_digit(t[i + 1]) || !is_digit(t[i + 2]) || !is_digit(t[i + 3])) return false;
    i += 4;
    ++groups;
  }
  if (groups == 0) return false;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && is_digit(t[i])) ++i;
  }
  return i == t.size();
}

// ^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ : a plain decimal number.
bool is_plain(const std::string& t) {
  std::size_t i = t.empty() || t[0] != '-' ? 0 : 1;
  std::size_t int_digits = 0;
  std::size_t frac_digits = 0;
  while (i < t.size() && is_digit(t[i])) ++i, ++int_digits;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && is_digit(t[i])) ++i, ++frac_digits;
  }
  if (int_digits == 0 && frac_digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
    const std::size_t exp_start = i;
    while (i < t.size() && is_digit(t[i])) ++i;
    if (i == exp_start) return false;
  }
  return i == t.size();
}

// "<prefix><middle><suffix>" with every character of middle in `allowed`:
// the middle, else nullopt (a regex with a capture, without the recursion
// std::regex spends on each character).
std::optional<std::string> middle_of(const std::string& name, const std::string& prefix, const std::string& suffix,
                                     bool (*allowed)(char)) {
  if (name.size() <= prefix.size() + suffix.size()) return std::nullopt;
  if (name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  if (name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return std::nullopt;
  std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  for (const char c : middle) {
    if (!allowed(c)) return std::nullopt;
  }
  return middle;
}

bool lower_digit_underscore(char c) { return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_'; }
bool lower_underscore(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }

}  // namespace

// Hand-written checks, not std::regex: its matcher recurses once per
// character, and a cell of 30 000 digits overflowed the stack.
std::optional<double> parse_number(const std::string& text) {
  std::string t = text;
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  if (is_grouped(t)) t.erase(std::remove(t.begin(), t.end(), ','), t.end());
  if (!is_plain(t)) return std::nullopt;
  const double value = std::strtod(t.c_str(), nullptr);
  if (!std::isfinite(value)) return std::nullopt;  // beyond double: not a value ncu could have meant
  return value;
}

std::vector<kernel_profile> kernels_from_table(const csv_table& table) {
  std::vector<kernel_profile> kernels;
  for (const std::vector<std::string>& row : table.m_rows) {
    const row_reader r(table, row);
    kernel_profile k;
    k.m_id = r.text("ID");
    k.m_name = r.text("Kernel Name");
    k.m_device = r.text("device__attribute_display_name");
    if (k.m_device.empty() && !parse_number(r.text("Device"))) k.m_device = r.text("Device");
    k.m_duration_ns = r.nanoseconds("gpu__time_duration.sum");
    k.m_dram_bytes = r.bytes("dram__bytes.sum");
    k.m_sol_compute_pct = r.number("sm__throughput.avg.pct_of_peak_sustained_elapsed");
    k.m_sol_memory_pct = r.number("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
    k.m_achieved_occupancy_pct = r.number("sm__warps_active.avg.pct_of_peak_sustained_active");
    k.m_theoretical_occupancy_pct = r.number("sm__maximum_warps_per_active_cycle_pct");
    k.m_tensor_pipe_pct = r.number("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active");
    k.m_waves_per_sm = r.number("launch__waves_per_multiprocessor");
    k.m_grid_size = r.number("launch__grid_size");
    k.m_block_size = r.number("launch__block_size");
    k.m_registers_per_thread = r.number("launch__registers_per_thread");
    k.m_static_smem_bytes = r.bytes("launch__shared_mem_per_block_static");
    k.m_dynamic_smem_bytes = r.bytes("launch__shared_mem_per_block_dynamic");
    k.m_sm_count = r.number("device__attribute_multiprocessor_count");
    k.m_grid = r.text("Grid Size");
    k.m_block = r.text("Block Size");
    for (std::size_t i = 0; i < table.m_header.size() && i < row.size(); ++i) {
      const std::string& name = table.m_header[i];
      if (const auto reason = middle_of(name, "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio",
                                        lower_digit_underscore)) {
        const auto value = parse_number(row[i]);
        if (value && *reason != "selected" && reason->find("not_issued") == std::string::npos) {
          k.m_stalls.push_back({*reason, *value});
        }
      } else if (const auto limit = middle_of(name, "launch__occupancy_limit_", "", lower_underscore)) {
        if (const auto value = parse_number(row[i])) k.m_occupancy_limits[*limit] = *value;
      }
    }
    std::stable_sort(k.m_stalls.begin(), k.m_stalls.end(),
                     [](const stall& a, const stall& b) { return a.m_cycles_per_issue > b.m_cycles_per_issue; });
    kernels.push_back(std::move(k));
  }
  return kernels;
}

json thresholds_json() {
  return {{"source",
           "Nsight Compute rule SOLBottleneck (section SpeedOfLight), file SOLBottleneck.py in the sections/ "
           "folder of the Nsight Compute installation: balanced_threshold = 10, latency_bound_threshold = 60, "
           "no_bound_threshold = 80, waves_threshold = 1"},
          {"latency_below_pct", sol_thresholds::k_latency_below_pct},
          {"high_throughput_at_pct", sol_thresholds::k_high_throughput_pct},
          {"balanced_within_pct", sol_thresholds::k_balanced_within_pct},
          {"small_grid_waves_below", sol_thresholds::k_small_grid_waves_below}};
}

classification classify(const kernel_profile& k) {
  if (!k.m_sol_compute_pct || !k.m_sol_memory_pct) {
    return {"unknown", "", "SOL compute or memory throughput missing (section SpeedOfLight not collected?)"};
  }
  const double sm = *k.m_sol_compute_pct;
  const double mem = *k.m_sol_memory_pct;
  const std::string both = "compute " + percent(sm) + ", memory " + percent(mem) + " of peak";
  if (sm >= sol_thresholds::k_high_throughput_pct || mem >= sol_thresholds::k_high_throughput_pct) {
    const bool memory = mem > sm;
    return {memory ? "high-throughput (memory)" : "high-throughput (compute)", "High Throughput",
            both + ": one is >= " + format(sol_thresholds::k_high_throughput_pct) + "%"};
  }
  if (sm < sol_thresholds::k_latency_below_pct && mem < sol_thresholds::k_latency_below_pct) {
    // ncu tells a small grid by launch__waves_per_multiprocessor < 1; without
    // it, by fewer blocks than SMs.
    if (k.m_waves_per_sm && *k.m_waves_per_sm < sol_thresholds::k_small_grid_waves_below) {
      return {"small-grid", "Small Grid", both + ", both < 60%, and " + format(*k.m_waves_per_sm) + " waves per SM (< 1)"};
    }
    if (!k.m_waves_per_sm && k.m_grid_size && k.m_sm_count && *k.m_grid_size < *k.m_sm_count) {
      return {"small-grid", "Small Grid",
              both + ", both < 60%, and a grid of " + format(*k.m_grid_size, 6) + " blocks on " +
                  format(*k.m_sm_count, 6) + " SMs"};
    }
    return {"latency-bound", "Latency Issue", both + ": both < 60%"};
  }
  if (std::fabs(sm - mem) >= sol_thresholds::k_balanced_within_pct) {
    if (sm > mem) return {"compute-bound", "High Compute Throughput", both + ": compute leads by >= 10 points"};
    return {"memory-bound", "High Memory Throughput", both + ": memory leads by >= 10 points"};
  }
  return {"balanced", "Balanced Throughput", both + ": within 10 points of each other"};
}

std::vector<std::string> findings(const kernel_profile& k) {
  std::vector<std::string> out;
  if (k.m_theoretical_occupancy_pct && *k.m_theoretical_occupancy_pct < 100) {
    std::string limiter;
    double fewest = 1e300;
    for (const auto& [what, blocks] : k.m_occupancy_limits) {
      if (blocks < fewest) {
        fewest = blocks;
        limiter = what;
      }
    }
    out.push_back("theoretical occupancy " + percent(*k.m_theoretical_occupancy_pct) +
                  (limiter.empty() ? std::string()
                                   : ", limited by " + limiter + " (" + format(fewest, 4) + " blocks per SM)"));
  }
  if (k.m_achieved_occupancy_pct && k.m_theoretical_occupancy_pct &&
      *k.m_achieved_occupancy_pct < *k.m_theoretical_occupancy_pct - 10) {
    out.push_back("achieved occupancy " + percent(*k.m_achieved_occupancy_pct) + " vs theoretical " +
                  percent(*k.m_theoretical_occupancy_pct) + ": warps idle (load imbalance, a partial last wave, or "
                  "a short kernel)");
  }
  if (!k.m_stalls.empty()) {
    std::string top;
    for (std::size_t i = 0; i < k.m_stalls.size() && i < 3; ++i) {
      top += (i ? ", " : "") + k.m_stalls[i].m_reason + " " + format(k.m_stalls[i].m_cycles_per_issue);
    }
    out.push_back("top warp stalls (cycles per issued instruction): " + top);
  }
  if (k.m_tensor_pipe_pct) {
    out.push_back("tensor pipe (HMMA) active " + percent(*k.m_tensor_pipe_pct) + " of peak");
  }
  if (k.m_waves_per_sm && *k.m_waves_per_sm < 1) {
    out.push_back(format(*k.m_waves_per_sm) + " waves per SM: the grid does not fill the GPU");
  }
  if (k.m_registers_per_thread && *k.m_registers_per_thread > 128) {
    out.push_back(format(*k.m_registers_per_thread, 4) + " registers per thread");
  }
  return out;
}

void ceiling_set::add_ceilings_document(const json& doc, const std::string& file) {
  for (const ceiling& c : ceilings_from_json(doc, file).m_ceilings) {  // values checked there: finite, > 0
    if (!c.m_value) continue;
    m_values[c.m_name] = {c.m_name, *c.m_value, c.m_unit,
                          (c.m_source == "measured" ? "measured, " : c.m_source + ", ") + file};
  }
}

void ceiling_set::add_spec_document(const json& doc, const std::string& file) {
  const json_reader root(doc, file);
  if (!root.has("values")) return;
  const json_reader values = root.at("values");
  if (!values.raw().is_object()) values.fail("expected an object of named values");
  const std::string device = root.has("device") ? root.at("device").as_string() : "?";
  for (const auto& item : values.raw().items()) {
    const json_reader entry = values.at(item.key());
    if (!entry.raw().is_object() || !entry.has("value")) continue;  // notes, or a value the spec sheet lacks
    if (entry.at("value").raw() == "unknown") continue;               // unknown, with a reason
    const std::string unit = entry.has("unit") ? entry.at("unit").as_string() : "";
    if (unit != "B/s" && unit != "FLOP/s") continue;
    const double value = entry.at("value").as_positive();
    if (m_values.count(item.key()) != 0) continue;  // measured wins
    const std::string source = entry.has("source") ? entry.at("source").as_string() : "?";
    m_values[item.key()] = {item.key(), value, unit, "spec " + device + ": " + source + " (" + file + ")"};
  }
}

std::optional<ceiling_value> ceiling_set::find(const std::string& name) const {
  const auto it = m_values.find(name);
  if (it == m_values.end()) return std::nullopt;
  return it->second;
}

std::optional<ceiling_value> ceiling_set::bandwidth() const {
  if (auto c = find("copy_bandwidth")) return c;
  return find("dram_bandwidth");
}

compute_choice choose_compute_ceiling(const std::string& forced, const std::vector<std::string>& input_dtypes,
                                      const std::vector<kernel_profile>& kernels) {
  if (!forced.empty()) return {forced, "given with --compute-ceiling"};
  const auto has = [&](const std::string& t) {
    return std::find(input_dtypes.begin(), input_dtypes.end(), t) != input_dtypes.end();
  };
  // The tensor pipe decides whether a tensor-core rate bounds the kernel. On
  // an H200 (2026-11-21) softmax kernels, which issue no matrix instruction,
  // read 0.2 - 4.8 % on the HMMA pipe metric and cuBLAS's bf16 GEMM 91 %:
  // below 10 % counts as idle. When the metric is missing the input type
  // decides.
  bool measured = false;
  bool tensor = false;
  for (const kernel_profile& k : kernels) {
    if (!k.m_tensor_pipe_pct) continue;
    measured = true;
    tensor = tensor || *k.m_tensor_pipe_pct >= 10.0;
  }
  if (has("f64")) return {"fp64", "f64 inputs"};
  if (tensor || !measured) {
    const std::string why = tensor ? "the tensor pipe was active" : "tensor-pipe use not measured";
    if (has("bf16")) return {"bf16_tensor", "bf16 inputs and " + why};
    if (has("f16")) return {"fp16_tensor", "f16 inputs and " + why};
    if (tensor) return {"tf32_tensor", "f32 inputs and " + why};
  }
  return {"fp32_fma", "tensor pipe idle (< 10 % active): the FP32 FMA rate"};
}

roofline_point roofline(double flops, double bytes, std::optional<double> dram_bytes, double duration_ns,
                        const ceiling_value& compute, const ceiling_value& bandwidth) {
  roofline_point p;
  p.m_flops = flops;
  p.m_bytes = bytes;
  p.m_intensity = bytes > 0 ? flops / bytes : 0;
  if (dram_bytes && *dram_bytes > 0) p.m_dram_intensity = flops / *dram_bytes;
  p.m_duration_ns = duration_ns;
  p.m_achieved_flops = duration_ns > 0 ? flops / (duration_ns * 1e-9) : 0;
  p.m_achieved_bytes = duration_ns > 0 ? bytes / (duration_ns * 1e-9) : 0;
  p.m_compute = compute;
  p.m_bandwidth = bandwidth;
  const double memory_roof = p.m_intensity * bandwidth.m_value;
  p.m_bound = memory_roof < compute.m_value ? "memory" : "compute";
  p.m_attainable_flops = std::min(compute.m_value, memory_roof);
  // A kernel with no flops in its model is measured on bandwidth alone.
  if (flops <= 0) {
    p.m_bound = "memory";
    p.m_fraction = bandwidth.m_value > 0 ? p.m_achieved_bytes / bandwidth.m_value : 0;
  } else {
    p.m_fraction = p.m_attainable_flops > 0 ? p.m_achieved_flops / p.m_attainable_flops : 0;
  }
  p.m_gap = 1 - p.m_fraction;
  return p;
}

json to_json(const roofline_point& p) {
  const auto ceiling = [](const ceiling_value& c) {
    return json{{"name", c.m_name}, {"value", c.m_value}, {"unit", c.m_unit}, {"source", c.m_source}};
  };
  return {{"flops", p.m_flops},
          {"bytes", p.m_bytes},
          {"arithmetic_intensity", p.m_intensity},
          {"dram_intensity", optional_json(p.m_dram_intensity)},
          {"duration_ns", p.m_duration_ns},
          {"achieved_flops_per_s", p.m_achieved_flops},
          {"achieved_bytes_per_s", p.m_achieved_bytes},
          {"compute_ceiling", ceiling(p.m_compute)},
          {"bandwidth_ceiling", ceiling(p.m_bandwidth)},
          {"attainable_flops_per_s", p.m_attainable_flops},
          {"bound", p.m_bound},
          {"fraction_of_attainable", p.m_fraction},
          {"gap", p.m_gap}};
}

json kernel_json(const kernel_profile& k) {
  const classification c = classify(k);
  json stalls = json::array();
  for (std::size_t i = 0; i < k.m_stalls.size() && i < 3; ++i) {
    stalls.push_back({{"reason", k.m_stalls[i].m_reason}, {"cycles_per_issue", k.m_stalls[i].m_cycles_per_issue}});
  }
  json limits = json::object();
  for (const auto& [what, blocks] : k.m_occupancy_limits) limits[what] = blocks;
  return {{"id", k.m_id},
          {"name", k.m_name},
          {"duration_ns", optional_json(k.m_duration_ns)},
          {"dram_bytes", optional_json(k.m_dram_bytes)},
          {"sol_compute_pct", optional_json(k.m_sol_compute_pct)},
          {"sol_memory_pct", optional_json(k.m_sol_memory_pct)},
          {"achieved_occupancy_pct", optional_json(k.m_achieved_occupancy_pct)},
          {"theoretical_occupancy_pct", optional_json(k.m_theoretical_occupancy_pct)},
          {"tensor_pipe_pct", optional_json(k.m_tensor_pipe_pct)},
          {"top_stalls", stalls},
          {"launch",
           {{"grid", k.m_grid},
            {"block", k.m_block},
            {"grid_size", optional_json(k.m_grid_size)},
            {"block_size", optional_json(k.m_block_size)},
            {"registers_per_thread", optional_json(k.m_registers_per_thread)},
            {"static_smem_bytes", optional_json(k.m_static_smem_bytes)},
            {"dynamic_smem_bytes", optional_json(k.m_dynamic_smem_bytes)},
            {"waves_per_sm", optional_json(k.m_waves_per_sm)},
            {"sm_count", optional_json(k.m_sm_count)},
            {"occupancy_limit_blocks", limits}}},
          {"bottleneck", c.m_bottleneck},
          {"ncu_rule", c.m_ncu_rule},
          {"why", c.m_why},
          {"findings", findings(k)}};
}

benchmark_summary summarize(const std::vector<kernel_profile>& kernels) {
  benchmark_summary s;
  double total = 0;
  double dram = 0;
  bool all_durations = !kernels.empty();
  bool all_dram = !kernels.empty();
  const kernel_profile* longest = nullptr;
  for (const kernel_profile& k : kernels) {
    if (k.m_duration_ns) {
      total += *k.m_duration_ns;
      if (longest == nullptr || !longest->m_duration_ns || *k.m_duration_ns > *longest->m_duration_ns) longest = &k;
    } else {
      all_durations = false;
    }
    if (k.m_dram_bytes) {
      dram += *k.m_dram_bytes;
    } else {
      all_dram = false;
    }
  }
  if (all_durations) s.m_duration_ns = total;
  if (all_dram) s.m_dram_bytes = dram;
  if (longest == nullptr && !kernels.empty()) longest = &kernels.front();
  if (longest == nullptr) {
    s.m_class = {"unknown", "", "no kernel was profiled"};
    return s;
  }
  s.m_class = classify(*longest);
  s.m_dominant_kernel = longest->m_name;
  s.m_dominant_share = total > 0 && longest->m_duration_ns ? *longest->m_duration_ns / total : 1;
  s.m_findings = findings(*longest);
  if (kernels.size() > 1) {
    s.m_findings.insert(s.m_findings.begin(), std::to_string(kernels.size()) + " kernels; the bottleneck is the longest's (" +
                                                  percent(100 * s.m_dominant_share) + " of the time)");
  }
  return s;
}

std::string overall_bottleneck(const std::vector<std::string>& per_shape) {
  std::string best;
  int best_count = 0;
  for (const std::string& b : per_shape) {
    const int count = static_cast<int>(std::count(per_shape.begin(), per_shape.end(), b));
    if (count > best_count) {
      best = b;
      best_count = count;
    }
  }
  return best.empty() ? "unknown" : best;
}

bool is_permission_problem(const std::string& output) {
  return output.find("ERR_NVGPUCTRPERM") != std::string::npos;
}

std::optional<std::string> ncu_problem(const std::string& output) {
  std::istringstream lines(output);
  std::string line;
  std::optional<std::string> first_error;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find("ERR_NVGPUCTRPERM") != std::string::npos) {
      return "performance counters not readable (ERR_NVGPUCTRPERM): " + line.substr(line.find("ERR_NVGPUCTRPERM"));
    }
    if (!first_error && line.rfind("==ERROR==", 0) == 0) first_error = line.substr(9);
  }
  if (first_error) {
    std::string text = *first_error;
    text.erase(0, text.find_first_not_of(' '));
    return "ncu: " + text;
  }
  if (output.find("No kernels were profiled") != std::string::npos) {
    return "ncu profiled no kernel (no launch between cudaProfilerStart and cudaProfilerStop?)";
  }
  return std::nullopt;
}

std::optional<std::filesystem::path> find_spec(const std::filesystem::path& specs_dir, const std::string& device_name) {
  std::error_code error;
  // Device names are short; a longer one (from a hostile CSV) matches no
  // spec rather than feeding std::regex, whose matcher recurses per character.
  if (device_name.empty() || device_name.size() > 256 || !std::filesystem::is_directory(specs_dir, error)) {
    return std::nullopt;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(specs_dir)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const std::filesystem::path& file : files) {
    const json doc = read_json_file(file);
    check_kind(doc, file, "kernelopt.spec", 1);
    const json_reader patterns = json_reader(doc, file.string()).at("match");
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      const std::string pattern = patterns.at(i).as_string();
      try {
        if (std::regex_search(device_name, std::regex(pattern, std::regex::ECMAScript | std::regex::icase))) return file;
      } catch (const std::regex_error& e) {
        patterns.at(i).fail("regex \"" + shorten(pattern) + "\" does not compile: " + std::string(e.what()));
      }
    }
  }
  return std::nullopt;
}

json unavailable_json(const std::string& kernel, const std::string& reason) {
  return {{"schema_version", 1}, {"kind", "kernelopt.profile"}, {"kernel", kernel}, {"status", "unavailable"},
          {"reason", reason}};
}

namespace {

std::optional<double> work(const std::string& expression, const std::string& shape, std::string& why) {
  if (expression.empty()) {
    why = "the kernel declares no FLOPS/BYTES";
    return std::nullopt;
  }
  try {
    return evaluate(expression, shape_dims(shape));
  } catch (const std::exception& e) {
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace

json build_document(const document_settings& settings, const std::vector<benchmark_input>& inputs) {
  // Parse every CSV first: the device name they carry picks the spec file.
  std::vector<std::vector<kernel_profile>> kernels(inputs.size());
  std::vector<std::string> errors(inputs.size());
  std::string device = settings.m_device;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const benchmark_input& in = inputs[i];
    if (!in.m_csv) {
      errors[i] = in.m_error.empty() ? "not profiled" : in.m_error;
      continue;
    }
    try {
      kernels[i] = kernels_from_table(parse_csv(*in.m_csv, in.m_csv_file.empty() ? in.m_name : in.m_csv_file));
      if (kernels[i].empty()) errors[i] = "ncu profiled no kernel in this launch";
    } catch (const std::exception& e) {
      errors[i] = e.what();
    }
    for (const kernel_profile& k : kernels[i]) {
      if (device.empty() && !k.m_device.empty()) device = k.m_device;
    }
  }

  ceiling_set ceilings;
  json sources = json::object();
  if (settings.m_ceilings) {
    ceilings.add_ceilings_document(*settings.m_ceilings, settings.m_ceilings_file);
    sources["ceilings_file"] = settings.m_ceilings_file;
  }
  std::string spec_note;
  if (!settings.m_specs_dir.empty()) {
    if (const auto spec = find_spec(settings.m_specs_dir, device)) {
      ceilings.add_spec_document(read_json_file(*spec), spec->string());
      sources["spec_file"] = spec->string();
    } else {
      spec_note = device.empty() ? "device unknown: no spec file matched"
                                 : "no spec file in " + settings.m_specs_dir.string() + " matches \"" + shorten(device) + "\"";
    }
  }
  if (!spec_note.empty()) sources["spec_note"] = spec_note;

  json benchmarks = json::array();
  std::map<std::string, std::vector<std::string>> bottlenecks;  // impl -> per shape
  std::map<std::string, json> gaps;                            // impl -> [{shape, gap}]
  std::vector<std::string> impl_order;
  std::size_t profiled = 0;
  std::string first_error;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const benchmark_input& in = inputs[i];
    if (std::find(impl_order.begin(), impl_order.end(), in.m_impl) == impl_order.end()) impl_order.push_back(in.m_impl);
    json entry = {{"name", in.m_name}, {"impl", in.m_impl}, {"shape", in.m_shape},
                  {"report", in.m_report.empty() ? json(nullptr) : json(in.m_report)}};
    if (!errors[i].empty()) {
      entry["status"] = "failed";
      entry["error"] = errors[i];
      if (first_error.empty()) first_error = in.m_name + ": " + errors[i];
      benchmarks.push_back(entry);
      continue;
    }
    ++profiled;
    const benchmark_summary summary = summarize(kernels[i]);
    json kernel_list = json::array();
    for (const kernel_profile& k : kernels[i]) kernel_list.push_back(kernel_json(k));
    entry["status"] = "ok";
    entry["error"] = nullptr;
    entry["kernels"] = kernel_list;
    entry["duration_ns"] = optional_json(summary.m_duration_ns);
    entry["dram_bytes"] = optional_json(summary.m_dram_bytes);
    entry["bottleneck"] = summary.m_class.m_bottleneck;
    entry["ncu_rule"] = summary.m_class.m_ncu_rule;
    entry["why"] = summary.m_class.m_why;
    entry["dominant_kernel"] = summary.m_dominant_kernel;
    std::vector<std::string> notes = summary.m_findings;

    std::string why_flops;
    std::string why_bytes;
    const std::optional<double> flops = work(settings.m_flops, in.m_shape, why_flops);
    const std::optional<double> bytes = work(settings.m_bytes, in.m_shape, why_bytes);
    entry["flops"] = optional_json(flops);
    entry["bytes"] = optional_json(bytes);
    if (bytes && summary.m_dram_bytes && *bytes > 0) {
      const double ratio = *summary.m_dram_bytes / *bytes;
      entry["dram_bytes_over_model"] = ratio;
      if (ratio > 1.2) {
        notes.push_back("DRAM traffic is " + format(ratio) + "x the work model's BYTES: data is read or written more than once");
      }
    }
    const compute_choice choice = choose_compute_ceiling(settings.m_compute_ceiling, settings.m_input_dtypes, kernels[i]);
    const std::optional<ceiling_value> compute = ceilings.find(choice.m_name);
    const std::optional<ceiling_value> bandwidth = ceilings.bandwidth();
    std::string roofline_missing;
    if (!bytes) roofline_missing = "BYTES unknown: " + why_bytes;
    else if (!flops) roofline_missing = "FLOPS unknown: " + why_flops;
    else if (!summary.m_duration_ns) roofline_missing = "kernel duration not measured";
    else if (!bandwidth) roofline_missing = "no bandwidth ceiling (no copy_bandwidth in a ceilings file, no dram_bandwidth in a spec file)";
    else if (!compute) roofline_missing = "no \"" + choice.m_name + "\" ceiling (" + choice.m_why + ") in the ceilings or spec file";
    if (roofline_missing.empty()) {
      const roofline_point p = roofline(*flops, *bytes, summary.m_dram_bytes, *summary.m_duration_ns, *compute, *bandwidth);
      json r = to_json(p);
      r["compute_ceiling"]["why"] = choice.m_why;
      entry["roofline"] = r;
      gaps[in.m_impl].push_back({{"shape", in.m_shape}, {"gap", p.m_gap}, {"bound", p.m_bound}});
    } else {
      entry["roofline"] = nullptr;
      entry["roofline_unavailable"] = roofline_missing;
    }
    entry["findings"] = notes;
    bottlenecks[in.m_impl].push_back(summary.m_class.m_bottleneck);
    benchmarks.push_back(entry);
  }

  json impls = json::object();
  for (const std::string& impl : impl_order) {
    impls[impl] = {{"bottleneck", bottlenecks.count(impl) ? overall_bottleneck(bottlenecks[impl]) : "not profiled"},
                   {"roofline", gaps.count(impl) ? gaps[impl] : json::array()}};
  }
  std::string status = "ok";
  if (profiled == 0) status = "unavailable";
  else if (profiled < inputs.size()) status = "partial";
  json doc = {{"schema_version", 1},
              {"kind", "kernelopt.profile"},
              {"kernel", settings.m_kernel},
              {"status", status},
              {"reason", status == "ok" ? json(nullptr) : json(first_error.empty() ? "nothing to profile" : first_error)},
              {"created_utc", utc_now_iso()},
              {"device", device.empty() ? json("unknown") : json(device)},
              {"tool", settings.m_tool},
              {"command", settings.m_command},
              {"thresholds", thresholds_json()},
              {"ceilings", sources},
              {"benchmarks", benchmarks},
              {"impls", impls}};
  if (impl_order.size() == 1) {
    doc["impl"] = impl_order.front();
    doc["bottleneck"] = impls[impl_order.front()]["bottleneck"];
    doc["roofline"] = impls[impl_order.front()]["roofline"];
  }
  return doc;
}

json impl_document(const json& doc, const std::string& impl, const std::string& file) {
  const json_reader root(doc, file);
  if (!doc.is_object()) root.fail("expected an object");
  json out = doc;
  json benchmarks = json::array();
  std::size_t ok = 0;
  std::size_t total = 0;
  std::string first_error;
  if (root.has("benchmarks")) {
    const json_reader list = root.at("benchmarks");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const json_reader b = list.at(i);
      if (!b.raw().is_object()) b.fail("expected an object");
      if ((b.has("impl") ? b.at("impl").as_string() : "") != impl) continue;
      ++total;
      if ((b.has("status") ? b.at("status").as_string() : "") == "ok") {
        ++ok;
      } else if (first_error.empty()) {
        first_error = (b.has("name") ? b.at("name").as_string() : "") + ": " +
                      (b.has("error") ? b.at("error").as_string() : "failed");
      }
      benchmarks.push_back(b.raw());
    }
  }
  out["benchmarks"] = benchmarks;
  out["status"] = ok == 0 ? "unavailable" : (ok < total ? "partial" : "ok");
  out["reason"] = ok == total && total > 0 ? json(nullptr) : json(first_error.empty() ? "not profiled" : first_error);
  out["impls"] = json::object();
  out["impl"] = impl;
  out["bottleneck"] = "not profiled";
  out["roofline"] = json::array();
  if (root.has("impls")) {
    const json_reader impls = root.at("impls");
    if (!impls.raw().is_object()) impls.fail("expected an object of implementations");
    if (impls.has(impl)) {
      const json_reader entry = impls.at(impl);
      out["impls"][impl] = entry.raw();
      out["bottleneck"] = entry.at("bottleneck").raw();
      out["roofline"] = entry.at("roofline").raw();
    }
  }
  return out;
}

}  // namespace kopt::profile
