#include "kopt/profile/capture.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "core/process.hpp"
#include "formats/ceilings.hpp"
#include "static/tool.hpp"

namespace kopt::profile {
namespace {

// Sections and metrics collected for each launch (docs/profiling.md).
const std::vector<std::string> k_sections = {"SpeedOfLight", "MemoryWorkloadAnalysis", "ComputeWorkloadAnalysis",
                                             "Occupancy",    "LaunchStats",            "WarpStateStats"};
const char* const k_default_metrics =
    "gpu__time_duration.sum,dram__bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,"
    "sm__throughput.avg.pct_of_peak_sustained_elapsed,"
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,"
    "sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,"
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,"
    "launch__waves_per_multiprocessor,launch__grid_size,launch__block_size,launch__registers_per_thread,"
    "device__attribute_multiprocessor_count,device__attribute_display_name";

std::string regex_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string safe_file_name(std::string text) {
  for (char& c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  }
  return text;
}

// ncu with its output kept: `limit_s` for a profiling run, the tools'
// default for --version and --import.
process_result run_ncu(const std::vector<std::string>& argv, double limit_s = k_limit_tool_s) {
  process_options options;
  options.m_capture = true;
  options.m_limit_s = limit_s;
  options.m_limit_source = limit_s == k_limit_tool_s ? "kopt's default for ncu --version and --import"
                                                     : "kopt's default for one ncu profiling run";
  return run_process(argv, options);
}

std::string ncu_version(const std::string& ncu) {
  try {
    const process_result run = run_ncu({ncu, "--version"});
    std::istringstream lines(run.m_out);
    std::string line;
    std::string last;
    while (std::getline(lines, line)) {
      if (!line.empty()) last = line;
    }
    return last.empty() ? "unknown" : last;
  } catch (const std::exception&) {
    return "unknown";
  }
}

// `given` (the path CMake found), else ncu in PATH, else the toolkit's.
std::string find_ncu(const std::optional<std::string>& given) {
  if (given) return tool::is_executable(*given) ? *given : std::string();
  const std::string in_path = tool::find_in_path("ncu");
  if (!in_path.empty()) return in_path;
  for (const char* candidate : {"/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu"}) {
    if (tool::is_executable(candidate)) return candidate;
  }
  return {};
}

}  // namespace

document_settings settings_for(const manifest& m, const settings_request& request) {
  document_settings s;
  s.m_kernel = m.m_kernel;
  s.m_flops = m.m_flops;
  s.m_bytes = m.m_bytes;
  s.m_input_dtypes = m.input_dtypes();
  if (request.m_ceilings_file) {
    s.m_ceilings = read_ceilings(*request.m_ceilings_file);  // every entry checked now, not at use
    s.m_ceilings_file = *request.m_ceilings_file;
  }
  if (request.m_specs_dir) s.m_specs_dir = *request.m_specs_dir;
  if (request.m_device) s.m_device = *request.m_device;
  if (request.m_compute_ceiling) s.m_compute_ceiling = *request.m_compute_ceiling;
  return s;
}

profile_document capture(const manifest& m, const capture_request& request, document_settings settings,
                         std::ostream& out) {
  if (m.m_backend != "cuda") {
    return unavailable_document(m.m_kernel, "kernel " + m.m_kernel + " has backend " + m.m_backend +
                                            ": Nsight Compute profiles CUDA kernels only");
  }
  const std::vector<std::string>& impls = request.m_impls;
  const bool quick = request.m_quick;
  const std::vector<std::string>& shapes = quick ? m.m_quick_shapes : m.m_shapes;
  const std::string ncu = find_ncu(request.m_ncu);
  if (ncu.empty()) {
    const std::string where = request.m_ncu ? " at " + *request.m_ncu : std::string(" in PATH or /usr/local/cuda/bin");
    return unavailable_document(m.m_kernel,
                            "ncu not found" + where + " (install Nsight Compute: it ships with the CUDA toolkit)");
  }
  if (m.m_bench_executable.empty() || !tool::is_executable(m.m_bench_executable)) {
    throw std::runtime_error("benchmark executable '" + m.m_bench_executable + "' not built (build " + m.m_kernel +
                             "_kopt_bench first)");
  }
  const std::filesystem::path work = request.m_work_dir;
  std::filesystem::create_directories(work);
  settings.m_tool = {ncu, ncu_version(ncu)};
  const std::string metrics = request.m_metrics.empty() ? std::string(k_default_metrics) : request.m_metrics;

  std::vector<benchmark_input> inputs;
  for (const std::string& impl : impls) {
    for (const std::string& text : shapes) {
      benchmark_input in;
      in.m_impl = impl;
      in.m_shape = shape::parse(text);
      in.m_name = m.m_kernel + "/" + impl + "/" + text;
      const std::string base = (work / safe_file_name(impl + "." + text)).string();
      in.m_report = base + ".ncu-rep";
      std::vector<std::string> argv = {ncu, "--clock-control", "none", "--profile-from-start", "off"};
      for (const std::string& section : k_sections) {
        argv.push_back("--section");
        argv.push_back(section);
      }
      argv.insert(argv.end(), {"--metrics", metrics, "--export", in.m_report, "--force-overwrite",
                               m.m_bench_executable, "--kopt_profile",
                               // Google Benchmark appends "/iterations:1/manual_time" to the name.
                               "--benchmark_filter=^" + regex_escape(in.m_name) + "(/|$)"});
      if (quick) argv.push_back("--kopt_quick");
      if (settings.m_command.empty()) settings.m_command = argv;

      out << "profile: " << in.m_name << " ..." << std::flush;
      std::filesystem::remove(in.m_report);
      const process_result run = run_ncu(argv, k_limit_ncu_run_s);
      const std::string output = run.m_out + run.m_err;
      write_file_atomic(base + ".log", describe_command(argv) + "\n" + output);
      if (is_permission_problem(output)) {
        out << " counters not readable\n";
        return unavailable_document(m.m_kernel, *ncu_problem(output));
      }
      if (run.m_timed_out || !std::filesystem::exists(in.m_report)) {
        in.m_report.clear();
        in.m_error = (run.m_timed_out ? "ncu " + run.describe()
                                      : ncu_problem(output).value_or("ncu " + run.describe() +
                                                                              ", no report written")) +
                     " (log: " + base + ".log)";
        out << " failed\n";
        inputs.push_back(std::move(in));
        continue;
      }
      const process_result csv =
          run_ncu({ncu, "--import", in.m_report, "--csv", "--page", "raw", "--print-units", "base"});
      in.m_csv_file = base + ".csv";
      write_file_atomic(in.m_csv_file, csv.m_out);
      if (!csv.exited(0)) {
        in.m_error = "ncu --import " + csv.describe() + ": " + ncu_problem(csv.m_out + csv.m_err).value_or(csv.m_err);
        out << " import failed\n";
      } else {
        in.m_csv = csv.m_out;
        out << " done\n";
      }
      inputs.push_back(std::move(in));
    }
  }
  return build_document(settings, inputs);
}

// Writes `doc` to `out`, and with several implementations also each one's
// own document beside it (<stem>.<impl>.json), the file `kopt record
// --profile` takes for that variant.
void write_documents(const std::filesystem::path& out, const profile_document& doc, std::ostream& text) {
  write_json_atomic(out, to_json(doc));
  text << "-> " << out.string() << "\n";
  if (!doc.m_run || doc.m_run->m_impls.size() < 2) return;
  for (const auto& [impl, overall] : doc.m_run->m_impls) {
    const std::filesystem::path file =
        out.parent_path() / (out.stem().string() + "." + impl + out.extension().string());
    write_json_atomic(file, to_json(impl_document(doc, impl)));
    text << "-> " << file.string() << "\n";
  }
}

void print_summary(const profile_document& doc, std::ostream& out) {
  if (doc.m_run) {
    for (const profiled_benchmark& b : doc.m_run->m_benchmarks) {
      out << "  " << b.m_name << ": ";
      if (b.m_status != "ok") {
        out << "FAILED (" << b.m_error.value_or("") << ")\n";
        continue;
      }
      out << b.m_bottleneck << " (" << b.m_why << ")";
      if (b.m_roofline) {
        char gap[32];
        std::snprintf(gap, sizeof gap, "%.0f%%", 100 * b.m_roofline->m_fraction);
        out << "; " << gap << " of the " << b.m_roofline->m_bound << " roof";
      }
      out << "\n";
    }
  }
  out << "profile: " << doc.m_status;
  if (doc.m_reason) out << " (" << *doc.m_reason << ")";
  out << "\n";
}

}  // namespace kopt::profile
