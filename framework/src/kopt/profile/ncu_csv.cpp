#include "kopt/profile/ncu_csv.hpp"

#include <algorithm>
#include <cctype>
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

}  // namespace kopt::profile
