#include "kopt/scale/shard/shard_document.hpp"

namespace kopt::scale {
namespace {

json optional_string(const std::optional<std::string>& value) { return value ? json(*value) : json(nullptr); }

std::optional<std::string> read_optional_string(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_string();
}

std::vector<std::string> read_strings(const json_reader& node) {
  std::vector<std::string> values;
  for (std::size_t i = 0; i < node.size(); ++i) values.push_back(node.at(i).as_string());
  return values;
}

json to_json(const shape_outcome& s) {
  return {{"shape", s.m_shape},
          {"correctness", s.m_correctness},
          {"median_ns", number_or_null(s.m_median_ns)},
          {"bench_error", optional_string(s.m_bench_error)}};
}

shape_outcome shape_from_json(const json_reader& node) {
  shape_outcome s;
  s.m_shape = node.at("shape").as_string();
  s.m_correctness = node.at("correctness").as_string();
  if (node.has("median_ns")) s.m_median_ns = node.at("median_ns").as_positive();
  s.m_bench_error = read_optional_string(node, "bench_error");
  return s;
}

json to_json(const unit_outcome& u) {
  json shapes = json::array();
  for (const shape_outcome& s : u.m_shapes) shapes.push_back(to_json(s));
  return {{"unit", u.m_unit},
          {"kernel", u.m_kernel},
          {"impl", u.m_impl},
          {"device_model", u.m_device_model},
          {"device_uuid", u.m_device_uuid},
          {"source_sha256", u.m_source_sha256},
          {"correctness", u.m_correctness},
          {"correctness_detail", u.m_correctness_detail},
          {"correctness_file", optional_string(u.m_correctness_file)},
          {"bench", u.m_bench},
          {"bench_detail", u.m_bench_detail},
          {"bench_file", optional_string(u.m_bench_file)},
          {"family", u.m_family.empty() ? json(nullptr) : json(u.m_family)},
          {"point_file", optional_string(u.m_point_file)},
          {"elapsed_s", u.m_elapsed_s},
          {"shapes", shapes}};
}

void check_choice(const json_reader& node, const std::string& value, const std::vector<std::string>& choices) {
  for (const std::string& choice : choices) {
    if (value == choice) return;
  }
  node.fail("'" + value + "' is not one of the allowed values");
}

unit_outcome unit_from_json(const json_reader& node) {
  unit_outcome u;
  u.m_unit = node.at("unit").as_string();
  u.m_kernel = node.at("kernel").as_string();
  u.m_impl = node.at("impl").as_string();
  if (u.m_unit != u.m_kernel + "/" + u.m_impl) node.at("unit").fail("is not <kernel>/<impl>");
  u.m_device_model = node.at("device_model").as_string();
  u.m_device_uuid = node.at("device_uuid").as_string();
  u.m_source_sha256 = node.at("source_sha256").as_string();
  u.m_correctness = node.at("correctness").as_string();
  check_choice(node.at("correctness"), u.m_correctness, {"pass", "fail", "incomplete", "skipped", "error"});
  u.m_correctness_detail = node.at("correctness_detail").as_string();
  u.m_correctness_file = read_optional_string(node, "correctness_file");
  u.m_bench = node.at("bench").as_string();
  check_choice(node.at("bench"), u.m_bench, {"ok", "failed", "skipped", "error", "not_run"});
  u.m_bench_detail = node.at("bench_detail").as_string();
  u.m_bench_file = read_optional_string(node, "bench_file");
  u.m_family = read_optional_string(node, "family").value_or("");
  u.m_point_file = read_optional_string(node, "point_file");
  if (u.m_family.empty() != !u.m_point_file) node.fail("family and point_file: a family point names both, other units neither");
  u.m_elapsed_s = node.at("elapsed_s").as_non_negative();
  const json_reader shapes = node.at("shapes");
  for (std::size_t i = 0; i < shapes.size(); ++i) u.m_shapes.push_back(shape_from_json(shapes.at(i)));
  return u;
}

}  // namespace

json to_json(const launcher_info& launcher) {
  json j = json::object();
  for (const auto& [name, value] : launcher.m_variables) j[name] = value;
  return j;
}

launcher_info launcher_from_json(const json_reader& node) {
  if (!node.raw().is_object()) node.fail("expected an object of strings (the launcher's variables)");
  launcher_info launcher;
  for (const auto& item : node.raw().items()) {
    launcher.m_variables.emplace_back(item.key(), node.at(item.key()).as_string());
  }
  return launcher;
}

json to_json(const shard_document& d) {
  json units = json::array();
  for (const unit_outcome& u : d.m_units) units.push_back(to_json(u));
  return {{"schema_version", k_shard_schema_version},
          {"kind", k_shard_kind},
          {"shard", {{"index", d.m_index}, {"count", d.m_count}, {"assignment", d.m_assignment},
                     {"index_source", d.m_index_source}}},
          {"status", d.m_status},
          {"run_id", d.m_run_id},
          {"host", d.m_host},
          {"kernelopt_version", d.m_kernelopt_version},
          {"started_utc", d.m_started_utc},
          {"finished_utc", d.m_finished_utc},
          {"suite", {{"sha256", d.m_suite_sha256}, {"quick", d.m_quick}, {"units", d.m_suite_units}}},
          {"device", {{"model", d.m_device_model}, {"uuid", d.m_device_uuid}}},
          {"build_sha256", d.m_build_sha256},
          {"launcher", to_json(d.m_launcher)},
          {"units", units},
          {"not_run", d.m_not_run}};
}

shard_document shard_from_json(const json& doc, const std::string& file) {
  const json_reader root(doc, file);
  (void)check_kind(root, k_shard_kind, k_shard_schema_version);
  shard_document d;
  const json_reader shard = root.at("shard");
  d.m_count = static_cast<int>(shard.at("count").as_count());
  d.m_index = static_cast<int>(shard.at("index").as_non_negative_integer());
  if (d.m_index >= d.m_count) shard.at("index").fail("is not below shard.count");
  d.m_assignment = shard.at("assignment").as_string();
  d.m_index_source = shard.at("index_source").as_string();
  d.m_status = root.at("status").as_string();
  check_choice(root.at("status"), d.m_status, {"complete", "partial"});
  d.m_run_id = root.at("run_id").as_string();
  if (d.m_run_id.empty()) root.at("run_id").fail("is empty");
  d.m_host = root.at("host").as_string();
  d.m_kernelopt_version = root.at("kernelopt_version").as_string();
  d.m_started_utc = root.at("started_utc").as_string();
  d.m_finished_utc = root.at("finished_utc").as_string();
  const json_reader suite = root.at("suite");
  d.m_suite_sha256 = suite.at("sha256").as_string();
  d.m_quick = suite.at("quick").as_bool();
  d.m_suite_units = read_strings(suite.at("units"));
  const json_reader device = root.at("device");
  d.m_device_model = device.at("model").as_string();
  d.m_device_uuid = device.at("uuid").as_string();
  d.m_build_sha256 = root.at("build_sha256").as_string();
  if (root.has("launcher")) d.m_launcher = launcher_from_json(root.at("launcher"));
  const json_reader units = root.at("units");
  for (std::size_t i = 0; i < units.size(); ++i) d.m_units.push_back(unit_from_json(units.at(i)));
  d.m_not_run = read_strings(root.at("not_run"));
  return d;
}

shard_document read_shard(const std::filesystem::path& path) {
  return shard_from_json(read_json_file(path), path.string());
}

}  // namespace kopt::scale
