// The benchmark result's Google Benchmark part: the reporter writes every
// field Google Benchmark's own JSONReporter writes for the same context and
// runs, with the same values (tools/compare.py reads those), and each
// iteration run gets the kopt row registered under its name.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <type_traits>

#include <unistd.h>

#include "bench/reporter.hpp"

namespace kopt::bench {
namespace {

using run_t = benchmark::BenchmarkReporter::Run;

// SkipWithError's mark, as Google Benchmark 1.7 (error_occurred) or 1.8 (skipped) keeps it.
template <class R, class = void>
struct has_error_occurred : std::false_type {};
template <class R>
struct has_error_occurred<R, std::void_t<decltype(std::declval<R>().error_occurred)>> : std::true_type {};
template <class R>
void mark_failed(R& run, const std::string& message) {
  if constexpr (has_error_occurred<R>::value) {
    run.error_occurred = true;
    run.error_message = message;
  } else {
    run.skipped = std::decay_t<decltype(run.skipped)>::SkippedWithError;
    run.skip_message = message;
  }
}

run_t iteration(const std::string& name, double real_us) {
  run_t run;
  run.run_name.function_name = name;
  run.run_name.iterations = "iterations:1";
  run.run_name.time_type = "manual_time";
  run.family_index = 3;
  run.per_family_instance_index = 0;
  run.repetitions = 1;
  run.repetition_index = 0;
  run.iterations = 1;
  run.time_unit = benchmark::kMicrosecond;
  run.real_accumulated_time = real_us * 1e-6;
  run.cpu_accumulated_time = 0.25;
  run.counters["GB/s"] = benchmark::Counter(812.5);
  run.counters["samples"] = benchmark::Counter(400);
  return run;
}

run_t aggregate(const std::string& name, const std::string& aggregate_name) {
  run_t run = iteration(name, 41.0);
  run.run_type = run_t::RT_Aggregate;
  run.aggregate_name = aggregate_name;
  run.repetitions = 3;
  run.run_name.repetitions = "repeats:3";
  return run;
}

// What Google Benchmark's JSONReporter writes for `runs`, parsed.
json google_benchmark_json(const std::vector<run_t>& runs) {
  std::ostringstream text;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&text);
  reporter.SetErrorStream(&text);
  const benchmark::BenchmarkReporter::Context context;
  (void)reporter.ReportContext(context);
  reporter.ReportRuns(runs);
  reporter.Finalize();
  return json::parse(text.str());
}

TEST(result_reporter, writes_what_google_benchmarks_json_reporter_writes_and_the_kopt_rows) {
  run_t failed = iteration("softmax/v2/rows=8", 0);
  mark_failed(failed, "output check failed");
  const std::vector<run_t> runs = {iteration("softmax/v1/rows=8", 41.2), failed,
                                   aggregate("softmax/v1/rows=8", "median")};
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("kopt_reporter_" + std::to_string(::getpid()) + ".json");
  std::map<std::string, int> asked;
  result_reporter reporter(
      file.string(),
      [&](const std::string& name) -> std::optional<bench_row> {
        ++asked[name];
        bench_row row;
        row.m_impl = name.substr(8, 2);
        row.m_shape = "rows=8";
        row.m_error = "a row for " + name;
        return row;
      },
      [] {
        bench_header h;
        h.m_kernel = "softmax";
        return h;
      });
  const benchmark::BenchmarkReporter::Context context;
  ASSERT_TRUE(reporter.ReportContext(context));
  reporter.ReportRuns(runs);
  reporter.Finalize();
  ASSERT_EQ(reporter.error(), "");
  const json ours = read_json_file(file);
  std::filesystem::remove(file);
  const json theirs = google_benchmark_json(runs);

  for (const auto& [key, value] : theirs["context"].items()) {
    if (key == "library_build_type") continue;  // only the library knows how it was built
    if (key == "date" || key == "load_avg") {
      EXPECT_TRUE(ours["context"].contains(key)) << key;
      continue;
    }
    EXPECT_EQ(ours["context"][key], value) << "context." << key;
  }
  ASSERT_EQ(ours["benchmarks"].size(), theirs["benchmarks"].size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const json& mine = ours["benchmarks"][i];
    for (const auto& [key, value] : theirs["benchmarks"][i].items()) {
      ASSERT_TRUE(mine.contains(key)) << "benchmarks/" << i << "/" << key;
      if (value.is_number()) {
        EXPECT_DOUBLE_EQ(mine[key].get<double>(), value.get<double>()) << "benchmarks/" << i << "/" << key;
      } else {
        EXPECT_EQ(mine[key], value) << "benchmarks/" << i << "/" << key;
      }
    }
  }
  // The kopt rows: one per iteration run, asked for by registered name; none on the aggregate.
  EXPECT_EQ(asked, (std::map<std::string, int>{{"softmax/v1/rows=8", 1}, {"softmax/v2/rows=8", 1}}));
  EXPECT_EQ(ours["benchmarks"][0]["kopt"]["error"], "a row for softmax/v1/rows=8");
  EXPECT_EQ(ours["benchmarks"][1]["kopt"]["impl"], "v2");
  EXPECT_FALSE(ours["benchmarks"][2].contains("kopt"));
  EXPECT_EQ(ours["kopt"]["kernel"], "softmax");
  EXPECT_EQ(ours["kopt"]["kind"], "kernelopt.bench");
  // And it reads back through the one type.
  const bench_result back = bench_result_from_json(json_reader(ours, "bench.json"));
  ASSERT_EQ(back.m_benchmarks.size(), 3u);
  EXPECT_EQ(back.m_benchmarks[1].m_run.m_error_message, std::optional<std::string>("output check failed"));
  EXPECT_TRUE(back.m_benchmarks[2].m_run.aggregate());
}

}  // namespace
}  // namespace kopt::bench
