#include "bench/reporter.hpp"

#include <cmath>
#include <ctime>
#include <type_traits>
#include <utility>

namespace kopt::bench {
namespace {

using run_t = benchmark::BenchmarkReporter::Run;

// Google Benchmark 1.7 reports a failed run with error_occurred /
// error_message, 1.8 with skipped / skip_message (SkipWithError or
// SkipWithMessage): whichever this library's Run has.
template <class R, class = void>
struct has_error_occurred : std::false_type {};
template <class R>
struct has_error_occurred<R, std::void_t<decltype(std::declval<R>().error_occurred)>> : std::true_type {};

template <class R>
void read_skip(const R& run, gbench_run& out) {
  if constexpr (has_error_occurred<R>::value) {
    if (run.error_occurred) out.m_error_message = run.error_message;
  } else {
    using skipped_t = std::decay_t<decltype(run.skipped)>;  // benchmark::internal::Skipped
    if (run.skipped == skipped_t::SkippedWithError) out.m_error_message = run.skip_message;
    if (run.skipped == skipped_t::SkippedWithMessage) out.m_skip_message = run.skip_message;
  }
}

// Local time with the UTC offset, as Google Benchmark writes `date`:
// "2026-11-21T06:13:32+00:00".
std::string local_date_time() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[64];
  if (std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S%z", &local) == 0) return "unknown";
  std::string date = text;
  if (date.size() >= 5) date.insert(date.size() - 2, ":");  // +0000 -> +00:00
  return date;
}

}  // namespace

json context_json(const benchmark::BenchmarkReporter::Context& context) {
  const benchmark::CPUInfo& cpu = context.cpu_info;
  json j = {{"date", local_date_time()}, {"host_name", context.sys_info.name}};
  if (benchmark::BenchmarkReporter::Context::executable_name != nullptr) {
    j["executable"] = benchmark::BenchmarkReporter::Context::executable_name;
  }
  j["num_cpus"] = cpu.num_cpus;
  j["mhz_per_cpu"] = static_cast<std::int64_t>(cpu.cycles_per_second / 1000000.0 + 0.5);
  if (cpu.scaling != benchmark::CPUInfo::UNKNOWN) j["cpu_scaling_enabled"] = cpu.scaling == benchmark::CPUInfo::ENABLED;
  json caches = json::array();
  for (const benchmark::CPUInfo::CacheInfo& c : cpu.caches) {
    caches.push_back({{"type", c.type}, {"level", c.level}, {"size", c.size}, {"num_sharing", c.num_sharing}});
  }
  j["caches"] = caches;
  json load = json::array();
  for (const double l : cpu.load_avg) load.push_back(std::isfinite(l) ? json(l) : json(nullptr));
  j["load_avg"] = load;
  if (const auto* custom = benchmark::internal::GetGlobalContext()) {
    for (const auto& [key, value] : *custom) j[key] = value;
  }
  return j;
}

gbench_run to_gbench_run(const run_t& run) {
  gbench_run r;
  r.m_name = run.benchmark_name();
  r.m_family_index = run.family_index;
  r.m_per_family_instance_index = run.per_family_instance_index;
  r.m_run_name = run.run_name.str();
  const bool aggregate = run.run_type == run_t::RT_Aggregate;
  r.m_run_type = aggregate ? "aggregate" : "iteration";
  r.m_repetitions = run.repetitions;
  r.m_repetition_index = run.repetition_index;
  r.m_threads = run.threads;
  const bool percentage = aggregate && run.aggregate_unit == benchmark::kPercentage;
  if (aggregate) {
    r.m_aggregate_name = run.aggregate_name;
    r.m_aggregate_unit = percentage ? "percentage" : "time";
  }
  read_skip(run, r);
  r.m_iterations = run.iterations;
  // KernelOpt registers no complexity (BigO / RMS rows): every run has times.
  r.m_real_time = percentage ? run.real_accumulated_time : run.GetAdjustedRealTime();
  r.m_cpu_time = percentage ? run.cpu_accumulated_time : run.GetAdjustedCPUTime();
  r.m_time_unit = benchmark::GetTimeUnitString(run.time_unit);
  for (const auto& [name, counter] : run.counters) r.m_counters.emplace_back(name, counter.value);
  r.m_label = run.report_label;
  return r;
}

result_reporter::result_reporter(std::string path, row_source rows, header_source header)
    : m_path(std::move(path)), m_rows(std::move(rows)), m_header(std::move(header)) {}

bool result_reporter::ReportContext(const Context& context) {
  m_result.m_context = context_json(context);
  return true;
}

void result_reporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    bench_entry entry;
    entry.m_run = to_gbench_run(run);
    if (run.run_type == Run::RT_Iteration) entry.m_kopt = m_rows(run.run_name.function_name);
    m_result.m_benchmarks.push_back(std::move(entry));
  }
}

void result_reporter::Finalize() {
  try {
    m_result.m_kopt = m_header();
    write_json_atomic(m_path, to_json(m_result));
  } catch (const std::exception& e) {
    m_error = e.what();
  }
}

}  // namespace kopt::bench
