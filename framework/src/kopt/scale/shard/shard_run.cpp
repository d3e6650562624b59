#include "kopt/scale/shard/shard_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <tuple>

#include "core/format.hpp"
#include "core/process.hpp"
#include "core/utc.hpp"
#include "kopt/inputs/bench.hpp"
#include "kopt/inputs/correctness.hpp"
#include "kopt/records/sha256.hpp"
#include "kopt/records/source_hash.hpp"
#include "kopt/run/environment.hpp"
#include "kopt/run/harness_run.hpp"
#include "kopt/scale/shard/shard_point.hpp"

namespace kopt::scale {
namespace {

using clock_type = std::chrono::steady_clock;

// The sources of a variant or baseline, in manifest order; empty when unknown.
std::vector<std::string> impl_sources(const manifest& m, const std::string& impl) {
  for (const variant_decl& v : m.m_variants) {
    if (v.m_name == impl) return v.m_sources;
  }
  for (const impl_decl& b : m.m_baselines) {
    if (b.m_name == impl) return b.m_sources;
  }
  return {};
}

std::string source_sha256_of(const manifest& m, const std::string& impl) {
  try {
    const std::vector<std::string> sources = impl_sources(m, impl);
    return sources.empty() ? "unknown" : hash_sources(sources).m_sha256;
  } catch (const std::exception&) {
    return "unknown";
  }
}

void hash_file(kopt::sha256& hash, const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return;
  hash.update(path.filename().string());
  hash.update(std::string(1, '\0'));
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    hash.update(buffer, static_cast<std::size_t>(in.gcount()));
  }
}

// sha256 over the test and bench executables and the implementation modules
// of the kernels this shard ran (names, then bytes), in a fixed order.
std::string build_sha256(const suite& s, const std::vector<const suite_unit*>& units) {
  std::vector<std::size_t> kernels;
  for (const suite_unit* unit : units) kernels.push_back(unit->m_manifest);
  std::sort(kernels.begin(), kernels.end());
  kernels.erase(std::unique(kernels.begin(), kernels.end()), kernels.end());
  kopt::sha256 hash;
  for (const std::size_t k : kernels) {
    const manifest& m = s.m_manifests[k];
    std::vector<std::filesystem::path> files = {m.m_test_executable};
    if (!m.m_bench_executable.empty()) files.push_back(m.m_bench_executable);
    std::vector<std::filesystem::path> modules;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(m.build_dir(), ec)) {
      const std::string name = entry.path().filename().string();
      if (name.find("kopt_" + m.m_kernel + "_") != std::string::npos && entry.path().extension() == ".so") {
        modules.push_back(entry.path());
      }
    }
    std::sort(modules.begin(), modules.end());
    files.insert(files.end(), modules.begin(), modules.end());
    for (const std::filesystem::path& file : files) hash_file(hash, file);
  }
  return hash.hex_digest();
}

launcher_info launcher_env() {
  launcher_info env;
  for (const char* name : {"SLURM_JOB_ID", "SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID", "SLURM_RESTART_COUNT",
                           "SLURM_JOB_NODELIST", "JOB_COMPLETION_INDEX", "HOSTNAME", "CUDA_VISIBLE_DEVICES"}) {
    if (const char* value = std::getenv(name)) env.m_variables.emplace_back(name, value);
  }
  return env;
}

// The first GPU the env probe sees, else the host CPU.
std::pair<std::string, std::string> shard_device() {
  const env_file env = probe_env();
  if (!env.m_devices.empty()) return {env.m_devices.front().m_name, env.m_devices.front().m_uuid};
  return {host_cpu_model(), "none"};
}

std::string shard_run_id() {
  return utc_now_compact() + "-" + host_name() + "-" + std::to_string(static_cast<long long>(::getpid()));
}

// The shard's --budget: each process's limit is the kernel's TIMEOUT or
// what is left of the budget, whichever is less.
class budget_clock {
 public:
  explicit budget_clock(std::optional<double> budget_s) : m_budget_s(budget_s), m_start(clock_type::now()) {}
  [[nodiscard]] std::optional<double> left_s() const {
    if (!m_budget_s) return std::nullopt;
    return *m_budget_s - std::chrono::duration<double>(clock_type::now() - m_start).count();
  }
  [[nodiscard]] process_options limits(const manifest& m) const {
    process_options options = harness_limits(m);
    options.m_capture = true;  // into the unit's logs, not the shard's own output
    if (const auto left = left_s(); left && *left < options.m_limit_s) {
      options.m_limit_s = std::max(*left, 1.0);
      options.m_limit_source = "what was left of the shard's --budget";
    }
    return options;
  }
  // Whether `limits` is the budget's rather than the kernel's own.
  [[nodiscard]] static bool cuts(const manifest& m, const process_options& limits) {
    return limits.m_limit_s < harness_limits(m).m_limit_s;
  }

 private:
  std::optional<double> m_budget_s;
  clock_type::time_point m_start;
};

// Less than this left of the budget: no unit is started.
constexpr double k_min_unit_budget_s = 5;

void write_log(const std::filesystem::path& path, const process_result& result) {
  write_file_atomic(path, result.m_out + (result.m_err.empty() ? "" : "\n--- stderr ---\n" + result.m_err));
}

// Correctness of one unit: the test's exit and its results file, summarized.
// `cut`: set when the process was stopped at the shard's budget, not at its own limit.
void run_correctness(const manifest& m, const suite_unit& unit, const std::filesystem::path& dir,
                     const budget_clock& budget, unit_outcome& u, correctness_summary& summary, bool& cut,
                     std::ostream& out) {
  const process_options limits = budget.limits(m);
  const std::string rel = m.m_kernel + "/correct." + unit.m_impl + ".json";
  const std::filesystem::path results = dir / rel;
  const process_result run = run_process(test_command(m, unit.m_impl, results), limits);
  cut = run.m_timed_out && budget.cuts(m, limits);
  write_log(dir / m.m_kernel / "logs" / (unit.m_impl + ".correct.log"), run);
  if ((run.exited(0) || run.exited(1) || run.exited(k_harness_skipped)) && std::filesystem::exists(results)) {
    u.m_correctness_file = rel;
    summary = summarize_correctness(m, unit.m_impl, {results});
    u.m_correctness = summary.m_status;
    u.m_correctness_detail = summary.m_status == "skipped" ? summary.m_skip_reason : summary.problem();
    if (!summary.m_device.empty()) u.m_device_model = summary.m_device;
  } else if (run.exited(k_harness_skipped)) {
    u.m_correctness = "skipped";
    u.m_correctness_detail = "the test exited 77 and wrote no results";
  } else {
    u.m_correctness = "error";
    u.m_correctness_detail = "the test ended with " + run.describe() +
                             (std::filesystem::exists(results) ? "" : ", writing no results");
  }
  out << "  " << unit.m_name << ": correctness " << u.m_correctness
      << (u.m_correctness_detail.empty() ? "" : " (" + u.m_correctness_detail + ")") << "\n"
      << std::flush;
}

void run_bench(const manifest& m, const suite_unit& unit, const std::filesystem::path& dir,
               const shard_run_request& request, const budget_clock& budget, unit_outcome& u, bool& cut,
               std::ostream& out) {
  if (u.m_correctness != "pass") {
    u.m_bench = "not_run";
    u.m_bench_detail = "correctness " + u.m_correctness + ": only correct implementations are timed";
    return;
  }
  if (const std::string why = bench_unavailable(m); !why.empty()) {
    u.m_bench = "skipped";
    u.m_bench_detail = why;
    return;
  }
  const std::string rel = m.m_kernel + "/bench." + unit.m_impl + ".json";
  const std::filesystem::path file = dir / rel;
  const process_options limits = budget.limits(m);
  const process_result run = run_process(
      bench_command(m, {unit.m_impl}, file, request.m_quick, request.m_ceilings.value_or(""), limits.m_limit_s),
      limits);
  write_log(dir / m.m_kernel / "logs" / (unit.m_impl + ".bench.log"), run);
  cut = run.m_timed_out && budget.cuts(m, limits);
  if (run.exited(k_harness_skipped)) {
    u.m_bench = "skipped";
    u.m_bench_detail = "the bench exited 77: no device to time on";
  } else if ((run.exited(0) || run.exited(1)) && std::filesystem::exists(file)) {
    u.m_bench_file = rel;
    u.m_bench = run.exited(0) ? "ok" : "failed";
    const bench_set set = read_bench(file);
    if (!set.m_device.empty()) u.m_device_model = set.m_device;
    if (set.m_gpu && set.m_gpu->m_uuid) u.m_device_uuid = *set.m_gpu->m_uuid;
    for (shape_outcome& shape : u.m_shapes) {
      if (const bench_row* row = set.find(unit.m_impl, shape.m_shape)) {
        if (row->m_error) {
          shape.m_bench_error = *row->m_error;
        } else {
          shape.m_median_ns = row->m_stats.m_median_ns;
        }
      }
    }
  } else {
    u.m_bench = "error";
    u.m_bench_detail = "the bench ended with " + run.describe();
  }
  out << "  " << unit.m_name << ": benchmark " << u.m_bench
      << (u.m_bench_detail.empty() ? "" : " (" + u.m_bench_detail + ")") << "\n"
      << std::flush;
}

}  // namespace

std::string host_cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) {
        std::string model = line.substr(colon + 1);
        model.erase(0, model.find_first_not_of(" \t"));
        return "host CPU: " + model;
      }
    }
  }
  return "host CPU: unknown";
}

std::pair<std::string, std::string> unit_device(const std::string& backend,
                                                const std::pair<std::string, std::string>& shard_device) {
  if (backend == "host") return {host_cpu_model(), "none"};
  return shard_device;
}

std::string host_name() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "unknown";
  return host;
}

shard_run_result run_shard(const suite& s, const shard_run_request& request, std::ostream& out) {
  shard_document doc;
  doc.m_index = request.m_shard.m_index;
  doc.m_count = request.m_shard.m_count;
  doc.m_assignment = k_assignment;
  doc.m_index_source = request.m_shard.m_index_source;
  doc.m_run_id = shard_run_id();
  doc.m_host = host_name();
  doc.m_kernelopt_version = request.m_kernelopt_version;
  doc.m_started_utc = utc_now_iso();
  doc.m_suite_sha256 = s.m_sha256;
  doc.m_quick = request.m_quick;
  doc.m_suite_units = s.unit_names();
  std::tie(doc.m_device_model, doc.m_device_uuid) = shard_device();
  doc.m_launcher = launcher_env();

  const std::string stem = shard_stem(doc.m_index, doc.m_count) + "." + doc.m_run_id;
  const std::filesystem::path partial = request.m_out / (stem + ".partial");
  const std::filesystem::path final_dir = request.m_out / stem;
  std::filesystem::create_directories(partial);

  std::vector<const suite_unit*> mine;
  for (const suite_unit& unit : s.m_units) {
    if (shard_of(unit.m_name, doc.m_count) == doc.m_index) mine.push_back(&unit);
  }
  out << "shard " << doc.m_index << "/" << doc.m_count << " (index from " << doc.m_index_source << "): "
      << mine.size() << " of " << s.m_units.size() << " units, folder " << partial.string() << "\n"
      << std::flush;

  const budget_clock budget(request.m_budget_s);
  for (const suite_unit* unit : mine) {
    const manifest& m = s.manifest_of(*unit);
    if (const auto left = budget.left_s(); left && *left < k_min_unit_budget_s) {
      doc.m_not_run.push_back(unit->m_name);
      continue;
    }
    const clock_type::time_point unit_start = clock_type::now();
    unit_outcome u;
    u.m_unit = unit->m_name;
    u.m_kernel = unit->m_kernel;
    u.m_impl = unit->m_impl;
    std::tie(u.m_device_model, u.m_device_uuid) = unit_device(m.m_backend, {doc.m_device_model, doc.m_device_uuid});
    if (!unit->m_family.empty()) {
      run_point(m, *unit, partial, u, out);
      if (u.m_device_model == "host CPU") u.m_device_model = host_cpu_model();
      u.m_elapsed_s = std::chrono::duration<double>(clock_type::now() - unit_start).count();
      doc.m_units.push_back(std::move(u));
      continue;
    }
    u.m_source_sha256 = source_sha256_of(m, unit->m_impl);
    correctness_summary summary;
    bool cut = false;
    run_correctness(m, *unit, partial, budget, u, summary, cut, out);
    // Every declared shape (the correctness test runs them all; with
    // --quick the benchmark times the quick ones only).
    for (const std::string& shape : m.m_shapes) {
      shape_outcome so;
      so.m_shape = shape;
      so.m_correctness = "not_run";
      for (const shape_correctness& sc : summary.m_shapes) {
        if (sc.m_shape == shape) so.m_correctness = sc.m_status;
      }
      u.m_shapes.push_back(so);
    }
    if (!cut) run_bench(m, *unit, partial, request, budget, u, cut, out);
    if (cut) {
      // Stopped by the budget, not by anything of its own: not a verdict.
      out << "  " << unit->m_name << ": stopped at the end of the shard's budget; not run\n";
      doc.m_not_run.push_back(unit->m_name);
      continue;
    }
    // The host backend names its device "host CPU": say which.
    if (u.m_device_model == "host CPU") u.m_device_model = host_cpu_model();
    u.m_elapsed_s = std::chrono::duration<double>(clock_type::now() - unit_start).count();
    doc.m_units.push_back(std::move(u));
  }
  doc.m_build_sha256 = build_sha256(s, mine);
  doc.m_status = doc.m_not_run.empty() ? "complete" : "partial";
  doc.m_finished_utc = utc_now_iso();
  write_json_atomic(partial / "env.json", to_json(probe_env()));
  write_json_atomic(partial / k_shard_file, to_json(doc));
  std::filesystem::rename(partial, final_dir);
  out << "shard " << doc.m_index << "/" << doc.m_count << ": " << doc.m_status << ", " << doc.m_units.size()
      << " units run" << (doc.m_not_run.empty() ? "" : ", " + std::to_string(doc.m_not_run.size()) +
                                                          " not started (time budget)")
      << " -> " << final_dir.string() << "\n";
  return {final_dir, doc};
}

}  // namespace kopt::scale
