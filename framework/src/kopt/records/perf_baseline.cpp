#include "kopt/records/perf_baseline.hpp"

#include <cctype>

namespace kopt {
namespace {

const std::vector<field_doc> k_baseline_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.perf_baseline`"},
    {"kernel", "string", "the kernel"},
    {"variant", "string", "the accepted best when measured"},
    {"source_sha256", "string", "the record's source hash: another one makes the file stale"},
    {"device", "string", "the bench's `kopt.device`: the GPU model"},
    {"gpus", "array", "UUIDs of the boards that ran (`[]` when unknown, e.g. host)"},
    {"runs", "integer", "benchmark processes, >= 1"},
    {"quick", "boolean", "only the quick shapes were timed"},
    {"created_utc", "string", "when it was measured"},
    {"shapes", "array", "per shape, in the benchmark's order"},
    {"geomean", "object", "over the shapes every run measured"},
};

const std::vector<field_doc> k_shape_fields = {
    {"shape", "string", "the shape as declared"},
    {"median_ns", "number", "median of the runs' medians, > 0"},
    {"run_medians_ns", "array", "one median per process"},
    {"spread", "number", "sample standard deviation of ln(run median): the run-to-run spread"},
    {"within_noise", "number | null", "median of the runs' own noise (within a run)"},
};

const std::vector<field_doc> k_geomean_fields = {
    {"run_geomeans_ns", "array", "per run, the geometric mean of its medians"},
    {"spread", "number", "sample standard deviation of ln(run geomean)"},
};

std::size_t checked_size(const json_reader& node) {
  const std::size_t count = node.size();
  if (count > k_max_baseline_list) node.fail("more than " + std::to_string(k_max_baseline_list) + " entries");
  return count;
}

}  // namespace

const baseline_shape* perf_baseline::find(const std::string& shape) const {
  for (const baseline_shape& s : m_shapes) {
    if (s.m_shape == shape) return &s;
  }
  return nullptr;
}

std::string device_slug(const std::string& device) {
  std::string slug;
  for (const char c : device) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "unknown-device" : slug.substr(0, 80);
}

std::filesystem::path baseline_path(const manifest& m, const std::string& variant, const std::string& device) {
  return m.kernel_records_dir() / "perf" / (variant + "." + device_slug(device) + ".json");
}

json to_json(const perf_baseline& b) {
  json shapes = json::array();
  for (const baseline_shape& s : b.m_shapes) {
    shapes.push_back({{"shape", s.m_shape},
                      {"median_ns", s.m_median_ns},
                      {"run_medians_ns", s.m_run_medians_ns},
                      {"spread", s.m_spread},
                      {"within_noise", number_or_null(s.m_within_noise)}});
  }
  return {{"schema_version", k_perf_baseline_schema_version},
          {"kind", k_perf_baseline_kind},
          {"kernel", b.m_kernel},
          {"variant", b.m_variant},
          {"source_sha256", b.m_source_sha256},
          {"device", b.m_device},
          {"gpus", b.m_gpus},
          {"runs", b.m_runs},
          {"quick", b.m_quick},
          {"created_utc", b.m_created_utc},
          {"shapes", shapes},
          {"geomean", {{"run_geomeans_ns", b.m_run_geomeans_ns}, {"spread", b.m_geomean_spread}}}};
}

perf_baseline perf_baseline_from_json(const json& doc, const std::string& file) {
  const json_reader root(doc, file);
  (void)check_kind(root, k_perf_baseline_kind, k_perf_baseline_schema_version);
  perf_baseline b;
  b.m_kernel = root.at("kernel").as_string();
  b.m_variant = root.at("variant").as_string();
  b.m_source_sha256 = root.at("source_sha256").as_string();
  b.m_device = root.at("device").as_string();
  const json_reader gpus = root.at("gpus");
  for (std::size_t i = 0, n = checked_size(gpus); i < n; ++i) b.m_gpus.push_back(gpus.at(i).as_string());
  b.m_runs = root.at("runs").as_count();
  b.m_quick = root.at("quick").as_bool();
  b.m_created_utc = root.at("created_utc").as_string();
  const json_reader shapes = root.at("shapes");
  for (std::size_t i = 0, n = checked_size(shapes); i < n; ++i) {
    const json_reader s = shapes.at(i);
    baseline_shape shape;
    shape.m_shape = s.at("shape").as_string();
    shape.m_median_ns = s.at("median_ns").as_positive();
    const json_reader runs = s.at("run_medians_ns");
    for (std::size_t j = 0, n = checked_size(runs); j < n; ++j) {
      shape.m_run_medians_ns.push_back(runs.at(j).as_positive());
    }
    shape.m_spread = s.at("spread").as_non_negative();
    if (s.has("within_noise")) shape.m_within_noise = s.at("within_noise").as_non_negative();
    b.m_shapes.push_back(shape);
  }
  const json_reader geomean = root.at("geomean");
  const json_reader runs = geomean.at("run_geomeans_ns");
  for (std::size_t j = 0, n = checked_size(runs); j < n; ++j) b.m_run_geomeans_ns.push_back(runs.at(j).as_positive());
  b.m_geomean_spread = geomean.at("spread").as_non_negative();
  return b;
}

std::optional<perf_baseline> read_perf_baseline(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  return perf_baseline_from_json(read_json_file(path), path.string());
}

std::vector<format_table> perf_baseline_tables() {
  return {{"kernelopt.perf_baseline", k_baseline_fields},
          {"kernelopt.perf_baseline: shapes[]", k_shape_fields},
          {"kernelopt.perf_baseline: geomean", k_geomean_fields}};
}

}  // namespace kopt
