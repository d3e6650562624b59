// What `kopt compare` reads: records, KernelOpt's benchmark JSON, plain
// Google Benchmark JSON and NVBench JSON, each turned into timing points.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "core/json_io.hpp"
#include "kopt/compare/verdict.hpp"
#include "formats/bench_result.hpp"
#include "kopt/inputs/bench.hpp"
#include "kopt/inputs/gbench.hpp"
#include "kopt/inputs/nvbench.hpp"
#include "kopt/records/record.hpp"

namespace kopt {
namespace {

// The kind a file declares: `kind` at the top (every KernelOpt document),
// else `kopt.kind` (KernelOpt's benchmark JSON: Google Benchmark's format
// with a `kopt` object); the field that holds it, for messages. Another
// tool's benchmark JSON declares none.
struct declared_kind {
  std::string m_kind;
  std::string m_field;
};

std::optional<declared_kind> kind_of(const json_reader& root) {
  if (root.has("kind")) return declared_kind{root.at("kind").as_string(), "kind"};
  if (root.has("kopt")) return declared_kind{root.at("kopt").at("kind").as_string(), "kopt"};
  return std::nullopt;
}

std::vector<timing_point> from_record(const json& doc, const std::filesystem::path& path) {
  check_kind(doc, path, k_record_kind, k_record_schema_version);
  const record r = record_from_json(doc, path.string());
  std::vector<timing_point> points;
  for (const shape_timing& s : r.m_timing.m_shapes) {
    if (!s.m_error) points.push_back({r.m_variant, s.m_shape.text(), s.m_stats});
  }
  return points;
}

// KernelOpt's benchmark JSON: one entry per repetition, each with its own
// median and noise; Google Benchmark's aggregates over them carry no kopt
// object and are left out (the repetitions themselves are the evidence).
std::vector<timing_point> from_kopt_bench(const json& doc, const std::filesystem::path& path) {
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
  std::vector<timing_point> points;
  for (const bench_row& row : bench.m_rows) {
    if (!row.m_error) points.push_back({row.m_impl, row.m_shape, row.m_stats});
  }
  return merge_repetitions(points);
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
  const json_reader root(doc, path.string());
  if (const std::optional<declared_kind> kind = kind_of(root)) {
    if (kind->m_field == "kind" && kind->m_kind == k_record_kind) return from_record(doc, path);
    if (kind->m_field == "kopt" && kind->m_kind == k_bench_kind) return from_kopt_bench(doc, path);
    const json_reader field = kind->m_field == "kind" ? root.at("kind") : root.at("kopt").at("kind");
    field.fail("\"" + shorten(kind->m_kind) + "\" is not what kopt compare reads: a " + k_record_kind +
               ", KernelOpt's benchmark JSON (kopt.kind " + k_bench_kind +
               "), or plain Google Benchmark or NVBench JSON (no kind)");
  }
  // Another tool's benchmark JSON: no kind to dispatch on; NVBench's
  // entries hold `states`, Google Benchmark's runs do not.
  if (!doc.is_object() || !doc.contains("benchmarks")) {
    throw format_error(path.string() +
                       ": /: neither a benchmark JSON file (no \"benchmarks\") nor a kernelopt.record");
  }
  if (is_nvbench_json(doc)) return from_series(read_nvbench_series(doc, path.string()));
  return from_series(read_gbench_series(doc, path.string()));
}

}  // namespace kopt
