// kopt profile: Nsight Compute on one launch per implementation x shape of
// the kernel's benchmark executable in its profile mode (warm-up, then one
// launch between cudaProfilerStart/Stop), one ncu process per benchmark so
// that every profiled kernel belongs to exactly one benchmark; each report
// imported as ncu's raw CSV page and turned into kernelopt.profile
// (profile_import.hpp).
//
// kopt profile-import: the same document from CSV files already captured
// (`ncu --import R --csv --page raw --print-units base > F`).
//
// Without ncu, or when the counters cannot be read (ERR_NVGPUCTRPERM), the
// document says {"status": "unavailable", "reason": ...}: exit 77, or 0 with
// --allow-unavailable (the profile-<k> target: a machine that cannot
// profile is not a build failure).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

#include "core/process.hpp"
#include "kopt/commands.hpp"
#include "kopt/manifest.hpp"
#include "kopt/ceilings.hpp"
#include "kopt/profile_import.hpp"
#include "static/tool.hpp"

namespace kopt::cli {
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

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The raw manifest's input dtypes (the manifest struct keeps no args).
std::vector<std::string> input_dtypes(const std::filesystem::path& manifest_file) {
  const json doc = read_json_file(manifest_file);
  const json_reader root(doc, manifest_file.string());
  std::vector<std::string> dtypes;
  if (!root.has("args")) return dtypes;
  const json_reader args = root.at("args");
  for (std::size_t i = 0; i < args.size(); ++i) {
    const json_reader arg = args.at(i);
    const std::string dir = arg.has("dir") ? arg.at("dir").as_string() : "";
    if (dir != "out") dtypes.push_back(arg.has("dtype") ? arg.at("dtype").as_string() : "");
  }
  return dtypes;
}

// Implementations to profile: those named, each a variant or a baseline;
// default all variants, then all baselines.
std::vector<std::string> implementations(const manifest& m, const std::vector<std::string>& named) {
  std::vector<std::string> known;
  for (const variant_decl& v : m.m_variants) known.push_back(v.m_name);
  for (const impl_decl& b : m.m_baselines) known.push_back(b.m_name);
  if (named.empty()) return known;
  for (const std::string& name : named) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw usage_error("--variant " + name + ": kernel " + m.m_kernel + " has no variant or baseline of that name (" +
                        list + ")");
    }
  }
  return named;
}

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

profile::document_settings settings_from(const arguments& args, const manifest& m) {
  profile::document_settings s;
  s.m_kernel = m.m_kernel;
  s.m_flops = m.m_flops;
  s.m_bytes = m.m_bytes;
  s.m_input_dtypes = input_dtypes(args.value("--manifest"));
  if (auto file = args.optional_value("--ceilings")) {
    s.m_ceilings = read_ceilings_document(*file);  // every entry checked now, not at use
    s.m_ceilings_file = *file;
  }
  if (auto dir = args.optional_value("--specs-dir")) s.m_specs_dir = *dir;
  if (auto device = args.optional_value("--device")) s.m_device = *device;
  if (auto forced = args.optional_value("--compute-ceiling")) s.m_compute_ceiling = *forced;
  return s;
}

// Writes `doc` to `out`, and with several implementations also each one's
// own document beside it (<stem>.<impl>.json), the file `kopt record
// --profile` takes for that variant.
void write_documents(const std::filesystem::path& out, const json& doc, std::ostream& text) {
  write_json_atomic(out, doc);
  text << "-> " << out.string() << "\n";
  const json impls = doc.value("impls", json::object());
  if (impls.size() < 2) return;
  for (const auto& item : impls.items()) {
    const std::filesystem::path file =
        out.parent_path() / (out.stem().string() + "." + item.key() + out.extension().string());
    write_json_atomic(file, profile::impl_document(doc, item.key(), out.string()));
    text << "-> " << file.string() << "\n";
  }
}

void print_summary(const json& doc, std::ostream& out) {
  for (const json& b : doc.value("benchmarks", json::array())) {
    out << "  " << b.value("name", std::string()) << ": ";
    if (b.value("status", std::string()) != "ok") {
      out << "FAILED (" << b.value("error", std::string()) << ")\n";
      continue;
    }
    out << b.value("bottleneck", std::string()) << " (" << b.value("why", std::string()) << ")";
    if (b.contains("roofline") && b["roofline"].is_object()) {
      const json& r = b["roofline"];
      char gap[32];
      std::snprintf(gap, sizeof gap, "%.0f%%", 100 * r.value("fraction_of_attainable", 0.0));
      out << "; " << gap << " of the " << r.value("bound", std::string()) << " roof";
    }
    out << "\n";
  }
  out << "profile: " << doc.value("status", std::string());
  if (doc.contains("reason") && doc["reason"].is_string()) out << " (" << doc["reason"].get<std::string>() << ")";
  out << "\n";
}

int finish_unavailable(const arguments& args, const manifest& m, const std::string& reason, std::ostream& out) {
  const std::filesystem::path file = args.value("--out");
  write_json_atomic(file, profile::unavailable_json(m.m_kernel, reason));
  out << "profile: unavailable (" << reason << ")\n-> " << file.string() << "\n";
  return args.has("--allow-unavailable") ? k_exit_ok : k_exit_skipped;
}

}  // namespace

int cmd_profile(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const manifest m = read_manifest(args.value("--manifest"));
  if (m.m_backend != "cuda") {
    return finish_unavailable(args, m, "kernel " + m.m_kernel + " has backend " + m.m_backend +
                                           ": Nsight Compute profiles CUDA kernels only", out);
  }
  const std::vector<std::string> impls = implementations(m, args.values("--variant"));
  const bool quick = args.has("--quick");
  const std::vector<std::string>& shapes = quick ? m.m_quick_shapes : m.m_shapes;
  const std::string ncu = find_ncu(args.optional_value("--ncu"));
  if (ncu.empty()) {
    const std::string where = args.has("--ncu") ? " at " + args.value("--ncu") : std::string(" in PATH or /usr/local/cuda/bin");
    return finish_unavailable(args, m, "ncu not found" + where + " (install Nsight Compute: it ships with the CUDA toolkit)", out);
  }
  if (m.m_bench_executable.empty() || !tool::is_executable(m.m_bench_executable)) {
    throw std::runtime_error("benchmark executable '" + m.m_bench_executable + "' not built (build " + m.m_kernel +
                             "_kopt_bench first)");
  }
  const std::filesystem::path out_file = args.value("--out");
  const std::filesystem::path work = out_file.parent_path() / (out_file.stem().string() + ".ncu");
  std::filesystem::create_directories(work);

  profile::document_settings settings = settings_from(args, m);
  settings.m_tool = {{"ncu", ncu}, {"version", ncu_version(ncu)}};
  const std::string metrics = args.optional_value("--metrics").value_or(k_default_metrics);

  std::vector<profile::benchmark_input> inputs;
  for (const std::string& impl : impls) {
    for (const std::string& shape : shapes) {
      profile::benchmark_input in;
      in.m_impl = impl;
      in.m_shape = shape;
      in.m_name = m.m_kernel + "/" + impl + "/" + shape;
      const std::string base = (work / safe_file_name(impl + "." + shape)).string();
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
      if (profile::is_permission_problem(output)) {
        out << " counters not readable\n";
        return finish_unavailable(args, m, *profile::ncu_problem(output), out);
      }
      if (run.m_timed_out || !std::filesystem::exists(in.m_report)) {
        in.m_report.clear();
        in.m_error = (run.m_timed_out ? "ncu " + run.describe()
                                      : profile::ncu_problem(output).value_or("ncu " + run.describe() +
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
        in.m_error = "ncu --import " + csv.describe() + ": " + profile::ncu_problem(csv.m_out + csv.m_err).value_or(csv.m_err);
        out << " import failed\n";
      } else {
        in.m_csv = csv.m_out;
        out << " done\n";
      }
      inputs.push_back(std::move(in));
    }
  }
  const json doc = profile::build_document(settings, inputs);
  print_summary(doc, out);
  write_documents(out_file, doc, out);
  if (doc.value("status", std::string()) == "unavailable") return args.has("--allow-unavailable") ? k_exit_ok : k_exit_skipped;
  return doc.value("status", std::string()) == "ok" ? k_exit_ok : k_exit_fail;
}

int cmd_profile_import(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const manifest m = read_manifest(args.value("--manifest"));
  profile::document_settings settings = settings_from(args, m);
  std::vector<profile::benchmark_input> inputs;
  for (const std::string& entry : args.values("--csv")) {
    // NAME=FILE, NAME "<k>/<impl>/<shape>" (the shape holds '=' too): split at the last '='.
    const std::size_t split = entry.rfind('=');
    if (split == std::string::npos) throw usage_error("--csv '" + entry + "': expected <k>/<impl>/<shape>=FILE");
    profile::benchmark_input in;
    in.m_name = entry.substr(0, split);
    const std::string file = entry.substr(split + 1);
    const std::size_t first = in.m_name.find('/');
    const std::size_t second = first == std::string::npos ? std::string::npos : in.m_name.find('/', first + 1);
    if (second == std::string::npos || in.m_name.substr(0, first) != m.m_kernel) {
      throw usage_error("--csv '" + entry + "': the benchmark name must be " + m.m_kernel + "/<impl>/<shape>");
    }
    in.m_impl = in.m_name.substr(first + 1, second - first - 1);
    in.m_shape = in.m_name.substr(second + 1);
    in.m_csv_file = file;
    in.m_csv = read_text(file);
    inputs.push_back(std::move(in));
  }
  settings.m_tool = {{"ncu", "imported"}, {"version", "unknown"}};
  const json doc = profile::build_document(settings, inputs);
  print_summary(doc, out);
  write_documents(args.value("--out"), doc, out);
  return doc.value("status", std::string()) == "ok" ? k_exit_ok : k_exit_fail;
}

}  // namespace kopt::cli
