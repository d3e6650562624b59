// The benchmark result written through Google Benchmark's extension point
// for output, a BenchmarkReporter: each run Google Benchmark reports
// becomes a gbench_run (the fields its JSONReporter writes, so that
// tools/compare.py reads the file), and each iteration run of a KernelOpt
// benchmark gets the kopt row the driver made for it, matched by the name
// the benchmark was registered with. Nothing is re-read or matched by text.
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/bench_result.hpp"

namespace kopt::bench {

// Google Benchmark's context, as its JSONReporter writes it (its
// library_build_type aside, which only the library itself knows).
[[nodiscard]] json context_json(const benchmark::BenchmarkReporter::Context& context);
// One run, as its JSONReporter writes it (Google Benchmark 1.7 and 1.8).
[[nodiscard]] gbench_run to_gbench_run(const benchmark::BenchmarkReporter::Run& run);

class result_reporter final : public benchmark::BenchmarkReporter {
 public:
  // The next kopt row of the benchmark registered as `name`, if any.
  using row_source = std::function<std::optional<bench_row>(const std::string& name)>;
  // The top-level kopt object, made once every benchmark ran.
  using header_source = std::function<bench_header()>;

  // NOTE: Google Benchmark opens --benchmark_out=FILE itself; Finalize()
  // replaces `path` atomically with the whole document (docs/formats.md:
  // a reader never sees half a file) rather than streaming into it.
  result_reporter(std::string path, row_source rows, header_source header);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // Why the file could not be written; empty when it was.
  [[nodiscard]] const std::string& error() const { return m_error; }

 private:
  std::string m_path;
  row_source m_rows;
  header_source m_header;
  bench_result m_result;
  std::string m_error;
};

}  // namespace kopt::bench
