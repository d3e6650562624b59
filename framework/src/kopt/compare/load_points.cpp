// What `kopt compare` reads: records, KernelOpt's benchmark JSON, plain
// Google Benchmark JSON and NVBench JSON, each turned into timing points.
#include <algorithm>
#include <cstdint>

#include "core/json_io.hpp"
#include "kopt/compare/verdict.hpp"
#include "kopt/inputs/bench.hpp"
#include "kopt/inputs/gbench.hpp"
#include "kopt/inputs/nvbench.hpp"
#include "kopt/records/record.hpp"

namespace kopt {
namespace {

bool is_kopt_bench(const json& doc) {
  if (doc.contains("kopt")) return true;
  const auto benchmarks = doc.find("benchmarks");
  if (benchmarks == doc.end() || !benchmarks->is_array()) return false;
  for (const json& entry : *benchmarks) {
    if (entry.is_object() && entry.contains("kopt")) return true;
  }
  return false;
}

std::vector<timing_point> from_series(const std::vector<timing_series>& all) {
  std::vector<timing_point> points;
  for (const timing_series& s : all) {
    if (s.m_error || !s.m_center_ns) continue;
    timing_point p{s.m_impl, s.m_shape, {}, s.m_repetitions_ns};
    p.m_stats.m_median_ns = *s.m_center_ns;
    p.m_stats.m_noise = s.m_noise;
    p.m_stats.m_samples = static_cast<std::int64_t>(std::max<std::size_t>(1, s.m_repetitions_ns.size()));
    if (p.m_repetitions_ns.size() == 1) p.m_repetitions_ns.clear();
    if (p.m_repetitions_ns.size() >= 2 && !p.m_stats.m_noise) {
      // The repetitions' own spread (merge_repetitions computes it).
      std::vector<timing_point> reps;
      for (const double v : p.m_repetitions_ns) {
        timing_point r{p.m_impl, p.m_shape, {}};
        r.m_stats.m_median_ns = v;
        r.m_stats.m_samples = 1;
        reps.push_back(r);
      }
      p.m_stats.m_noise = merge_repetitions(reps).front().m_stats.m_noise;
    }
    points.push_back(p);
  }
  return points;
}

}  // namespace

std::vector<timing_point> load_timing_points(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    // Several processes of one build (tools/ci/base_vs_pr.sh): every *.json
    // in the folder, each file one repetition of its rows.
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(path)) {
      if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) throw format_error(path.string() + ": a folder with no *.json file");
    std::vector<timing_point> all;
    for (const std::filesystem::path& file : files) {
      const std::vector<timing_point> points = load_timing_points(file);
      all.insert(all.end(), points.begin(), points.end());
    }
    return merge_repetitions(all);
  }
  const json doc = read_json_file(path);
  std::vector<timing_point> points;
  if (doc.is_object() && doc.contains("kind") && doc["kind"] == "kernelopt.record") {
    check_kind(doc, path, "kernelopt.record", k_record_schema_version);
    const record r = record_from_json(doc, path.string());
    for (const shape_timing& s : r.m_timing.m_shapes) {
      if (!s.m_error) points.push_back({r.m_variant, s.m_shape.text(), s.m_stats});
    }
    return points;
  }
  if (!doc.is_object() || !doc.contains("benchmarks")) {
    throw format_error(path.string() +
                       ": /: neither a benchmark JSON file (no \"benchmarks\") nor a kernelopt.record");
  }
  if (is_nvbench_json(doc)) return from_series(read_nvbench_series(doc, path.string()));
  if (!is_kopt_bench(doc)) return from_series(read_gbench_series(doc, path.string()));
  // KernelOpt's benchmark JSON: one entry per repetition, each with its own
  // median and noise; Google Benchmark's aggregates over them carry no kopt
  // object and are left out (the repetitions themselves are the evidence).
  json repetitions = doc;
  json& benchmarks = repetitions["benchmarks"];
  if (benchmarks.is_array()) {
    json kept = json::array();
    for (const json& entry : benchmarks) {
      if (entry.is_object() && entry.contains("run_type") && entry["run_type"] == "aggregate") continue;
      kept.push_back(entry);
    }
    benchmarks = kept;
  }
  const bench_set bench = bench_from_json(repetitions, path.string());
  for (const bench_row& row : bench.m_rows) {
    if (!row.m_error) points.push_back({row.m_impl, row.m_shape, row.m_stats});
  }
  return merge_repetitions(points);
}

}  // namespace kopt
