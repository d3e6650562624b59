#include "kopt/sweep/point_result.hpp"

#include "kopt/inputs/names.hpp"
#include "kopt/records/sha256.hpp"
#include "kopt/records/source_hash.hpp"

namespace kopt {
namespace {

const std::vector<field_doc> k_point_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.sweep_point`"},
    {"kernel", "string", "the kernel"},
    {"variant", "string", "the family variant"},
    {"point", "string", "the point, `<variant>_p<index>`"},
    {"params", "array", "`NAME=value` per parameter"},
    {"source_hash", "string", "sha256 over the family's sources and the point's params: a change re-runs the point"},
    {"build", "object", "the build stage"},
    {"correctness", "object", "the correctness stage (every declared shape and seed)"},
    {"bench", "object", "the benchmark stage (every declared shape)"},
    {"times", "array", "per declared shape: `shape`, `median_ns`, `noise` (null when unknown); empty unless bench ok"},
    {"utc", "string", "when the file was last written"},
};

const std::vector<field_doc> k_stage_fields = {
    {"status", "string", "build: `ok`, `failed`, `skipped` (not for this build's architectures); correctness: "
                         "`pass`, `fail`, `skipped`; bench: `ok`, `failed`, `skipped`; any: `not_run`"},
    {"detail", "string", "why it failed or was skipped, \"\" when it passed"},
    {"elapsed_s", "number", "seconds the stage took"},
};

json stage_json(const point_stage& s) {
  return {{"status", s.m_status}, {"detail", s.m_detail}, {"elapsed_s", s.m_elapsed_s}};
}

point_stage read_stage(const json_reader& node, const std::vector<std::string>& allowed) {
  point_stage s;
  s.m_status = node.at("status").as_string();
  bool known = s.m_status == "not_run";
  for (const std::string& a : allowed) known = known || s.m_status == a;
  if (!known) node.at("status").fail("unknown status '" + shorten(s.m_status) + "'");
  s.m_detail = node.at("detail").as_string();
  s.m_elapsed_s = node.at("elapsed_s").as_number();
  return s;
}

}  // namespace

bool point_result::finished() const {
  if (m_build.m_status == "failed") return true;
  if (m_build.m_status != "ok") return false;
  // A skip (no GPU here) is not a verdict: the next run tries again.
  if (m_correctness.m_status == "fail") return true;
  if (m_correctness.m_status != "pass") return false;
  return m_bench.m_status == "ok" || m_bench.m_status == "failed";
}

bool point_result::skipped() const {
  return m_build.m_status == "skipped" || m_correctness.m_status == "skipped" || m_bench.m_status == "skipped";
}

bool point_result::usable() const {
  return m_build.m_status == "ok" && m_correctness.m_status == "pass" && m_bench.m_status == "ok";
}

std::string point_result::failure() const {
  if (m_build.m_status != "ok") return "build " + m_build.m_status + (m_build.m_detail.empty() ? "" : ": " + m_build.m_detail);
  if (m_correctness.m_status != "pass") {
    return "correctness " + m_correctness.m_status + (m_correctness.m_detail.empty() ? "" : ": " + m_correctness.m_detail);
  }
  if (m_bench.m_status != "ok") return "bench " + m_bench.m_status + (m_bench.m_detail.empty() ? "" : ": " + m_bench.m_detail);
  return {};
}

const point_time* point_result::time_of(const std::string& shape) const {
  for (const point_time& t : m_times) {
    if (t.m_shape == shape) return &t;
  }
  return nullptr;
}

json to_json(const point_result& r) {
  json times = json::array();
  for (const point_time& t : r.m_times) {
    times.push_back({{"shape", t.m_shape},
                     {"median_ns", t.m_median_ns},
                     {"noise", t.m_noise ? json(*t.m_noise) : json(nullptr)}});
  }
  return {{"schema_version", k_sweep_point_schema_version},
          {"kind", k_sweep_point_kind},
          {"kernel", r.m_kernel},
          {"variant", r.m_variant},
          {"point", r.m_point},
          {"params", r.m_params},
          {"source_hash", r.m_source_hash},
          {"build", stage_json(r.m_build)},
          {"correctness", stage_json(r.m_correctness)},
          {"bench", stage_json(r.m_bench)},
          {"times", times},
          {"utc", r.m_utc}};
}

point_result point_result_from_json(const json_reader& root) {
  (void)check_kind(root, k_sweep_point_kind, k_sweep_point_schema_version);
  point_result r;
  r.m_kernel = read_name(root.at("kernel"));
  r.m_variant = read_name(root.at("variant"));
  r.m_point = read_name(root.at("point"));
  const json_reader params = root.at("params");
  for (std::size_t i = 0; i < params.size(); ++i) r.m_params.push_back(params.at(i).as_string());
  r.m_source_hash = root.at("source_hash").as_string();
  r.m_build = read_stage(root.at("build"), {"ok", "failed", "skipped"});
  r.m_correctness = read_stage(root.at("correctness"), {"pass", "fail", "skipped"});
  r.m_bench = read_stage(root.at("bench"), {"ok", "failed", "skipped"});
  const json_reader times = root.at("times");
  for (std::size_t i = 0; i < times.size(); ++i) {
    const json_reader t = times.at(i);
    point_time pt{t.at("shape").as_string(), t.at("median_ns").as_positive(), std::nullopt};
    if (t.has("noise")) pt.m_noise = t.at("noise").as_number();
    r.m_times.push_back(pt);
  }
  r.m_utc = root.at("utc").as_string();
  return r;
}

point_result read_point_result(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  return point_result_from_json(json_reader(doc, path.string()));
}

std::filesystem::path point_result_path(const std::filesystem::path& dir, const std::string& point) {
  return dir / (point + ".json");
}

std::string point_source_hash(const variant_decl& family, const point_decl& point) {
  std::string text = hash_sources(family.m_sources).m_sha256;
  for (const std::string& p : point.m_params) text += std::string(1, '\0') + p;
  return sha256_hex(text);
}

std::vector<format_table> sweep_point_tables() {
  return {{"kernelopt.sweep_point", k_point_fields}, {"kernelopt.sweep_point: build, correctness, bench", k_stage_fields}};
}

}  // namespace kopt
