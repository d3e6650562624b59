#include "formats/clocks.hpp"

namespace kopt {
namespace {

const std::vector<field_doc> k_second_clock_fields = {
    {"source", "string", "`cupti` (absent on the host backend, whose object is `available` and `reason` only)"},
    {"available", "boolean", "whether CUPTI measured the launches"},
    {"reason", "string | null", "why not; `null` when available"},
    {"median_ns", "number | null", "CUPTI's median span per sample (first kernel start to last kernel end)"},
    {"agreement", "string", "`ok`, `disagree` (beyond `bound`: the gate rejects) or `unavailable`"},
    {"difference", "number | null", "relative difference of the CUPTI median from the events' median"},
    {"bound", "number | null", "available: the difference allowed (noise, with a floor)"},
    {"samples", "integer", "available: CUPTI samples taken"},
    {"noise", "number | null", "available: their relative noise"},
    {"dropped_records", "integer", "available: activity records CUPTI dropped"},
    {"kernels", "array", "every kernel, copy or set CUPTI saw per sample, on every stream"},
};

const std::vector<field_doc> k_kernel_fields = {
    {"name", "string", "demangled name"},
    {"grid", "array", "grid size `[x, y, z]`"},
    {"block", "array", "block size `[x, y, z]`"},
    {"registers", "integer", "registers per thread"},
    {"static_smem", "integer", "static shared memory per block (bytes)"},
    {"dynamic_smem", "integer", "dynamic shared memory per block (bytes)"},
    {"stream", "integer", "CUPTI's stream id (more than one: work the events did not time)"},
    {"median_ns", "number", "median duration of one launch"},
    {"launches_per_sample", "number", "launches per sample"},
};

const std::vector<field_doc> k_clock_fields = {
    {"sm_mhz_min", "integer | \"unknown\"", "lowest SM clock while busy (NVML)"},
    {"sm_mhz_max", "integer | \"unknown\"", "highest SM clock while busy"},
    {"sm_mhz_limit", "integer | \"unknown\"", "the SM clock limit"},
    {"throttled", "boolean | \"unknown\"", "whether the clock was held down or dropped more than 10 % below the limit"},
    {"reasons", "array", "NVML clock event reasons seen during the window"},
    {"readings", "integer", "NVML readings taken"},
    {"reason", "string | null", "why a value is `unknown`; `null` when none is"},
};

json or_null(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json or_null(const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); }

std::optional<std::string> optional_string(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_string();
}
std::optional<double> optional_number(const json_reader& node, const char* key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_number();
}

void expect_object(const json_reader& node, const char* what) {
  if (!node.raw().is_object()) node.fail(std::string("expected an object (") + what + ")");
}

std::array<std::int64_t, 3> dim3_from_json(const json_reader& node) {
  if (node.size() != 3) node.fail("expected [x, y, z]");
  return {node.at(std::size_t{0}).as_non_negative_integer(), node.at(1).as_non_negative_integer(),
          node.at(2).as_non_negative_integer()};
}

json to_json(const clock_kernel& k) {
  return {{"name", k.m_name},
          {"grid", k.m_grid},
          {"block", k.m_block},
          {"registers", k.m_registers},
          {"static_smem", k.m_static_smem},
          {"dynamic_smem", k.m_dynamic_smem},
          {"stream", k.m_stream},
          {"median_ns", k.m_median_ns},
          {"launches_per_sample", k.m_launches_per_sample}};
}

clock_kernel kernel_from_json(const json_reader& node) {
  expect_object(node, "name, grid, block, ...");
  clock_kernel k;
  k.m_name = node.at("name").as_string();
  k.m_grid = dim3_from_json(node.at("grid"));
  k.m_block = dim3_from_json(node.at("block"));
  k.m_registers = node.at("registers").as_non_negative_integer();
  k.m_static_smem = node.at("static_smem").as_non_negative_integer();
  k.m_dynamic_smem = node.at("dynamic_smem").as_non_negative_integer();
  k.m_stream = node.at("stream").as_non_negative_integer();
  k.m_median_ns = node.at("median_ns").as_non_negative();
  k.m_launches_per_sample = node.at("launches_per_sample").as_non_negative();
  return k;
}

json integer_or_unknown(const std::optional<std::int64_t>& v) { return v ? json(*v) : json("unknown"); }

bool is_unknown(const json_reader& node) {
  return node.raw().is_string() && node.raw().get_ref<const std::string&>() == "unknown";
}

std::optional<std::int64_t> integer_or_unknown(const json_reader& node) {
  if (is_unknown(node)) return std::nullopt;
  if (!node.raw().is_number()) node.fail("expected an integer or \"unknown\"");
  return node.as_non_negative_integer();
}

}  // namespace

second_clock second_clock::unavailable(std::string source_or_empty, std::string reason) {
  second_clock c;
  if (!source_or_empty.empty()) c.m_source = std::move(source_or_empty);
  c.m_reason = std::move(reason);
  return c;
}

json to_json(const second_clock& c) {
  if (!c.m_source) return {{"available", c.m_available}, {"reason", or_null(c.m_reason)}};
  json kernels = json::array();
  for (const clock_kernel& k : c.m_kernels) kernels.push_back(to_json(k));
  json j = {{"source", *c.m_source},
            {"available", c.m_available},
            {"reason", or_null(c.m_reason)},
            {"median_ns", or_null(c.m_median_ns)},
            {"agreement", c.m_agreement},
            {"difference", or_null(c.m_difference)}};
  if (c.m_available) {
    j["bound"] = or_null(c.m_bound);
    j["samples"] = c.m_samples;
    j["noise"] = or_null(c.m_noise);
    j["dropped_records"] = c.m_dropped_records;
  }
  j["kernels"] = std::move(kernels);
  return j;
}

second_clock second_clock_from_json(const json_reader& node) {
  expect_object(node, "available, reason, ...");
  second_clock c;
  c.m_source = optional_string(node, "source");
  c.m_available = node.at("available").as_bool();
  c.m_reason = optional_string(node, "reason");
  if (!c.m_source) {
    if (c.m_available) node.at("available").fail("true without a source");
    return c;
  }
  c.m_median_ns = optional_number(node, "median_ns");
  c.m_agreement = node.at("agreement").as_string();
  if (c.m_agreement != "ok" && c.m_agreement != "disagree" && c.m_agreement != "unavailable") {
    node.at("agreement").fail("expected \"ok\", \"disagree\" or \"unavailable\", got \"" + shorten(c.m_agreement) + "\"");
  }
  c.m_difference = optional_number(node, "difference");
  if (c.m_available) {
    c.m_bound = optional_number(node, "bound");
    c.m_samples = node.at("samples").as_non_negative_integer();
    c.m_noise = optional_number(node, "noise");
    c.m_dropped_records = node.at("dropped_records").as_non_negative_integer();
  }
  const json_reader kernels = node.at("kernels");
  const std::size_t count = kernels.size();
  if (count > k_max_clock_kernels) kernels.fail("more than " + std::to_string(k_max_clock_kernels) + " kernels");
  for (std::size_t i = 0; i < count; ++i) c.m_kernels.push_back(kernel_from_json(kernels.at(i)));
  return c;
}

json to_json(const clock_window& c) {
  return {{"sm_mhz_min", integer_or_unknown(c.m_sm_mhz_min)},
          {"sm_mhz_max", integer_or_unknown(c.m_sm_mhz_max)},
          {"sm_mhz_limit", integer_or_unknown(c.m_sm_mhz_limit)},
          {"throttled", c.m_throttled ? json(*c.m_throttled) : json("unknown")},
          {"reasons", c.m_reasons},
          {"readings", c.m_readings},
          {"reason", or_null(c.m_reason)}};
}

clock_window clock_window_from_json(const json_reader& node) {
  expect_object(node, "sm_mhz_min, sm_mhz_max, ...");
  clock_window c;
  c.m_sm_mhz_min = integer_or_unknown(node.at("sm_mhz_min"));
  c.m_sm_mhz_max = integer_or_unknown(node.at("sm_mhz_max"));
  c.m_sm_mhz_limit = integer_or_unknown(node.at("sm_mhz_limit"));
  const json_reader throttled = node.at("throttled");
  if (!is_unknown(throttled)) c.m_throttled = throttled.as_bool();
  const json_reader reasons = node.at("reasons");
  const std::size_t count = reasons.size();
  if (count > k_max_clock_kernels) reasons.fail("too many reasons");
  for (std::size_t i = 0; i < count; ++i) c.m_reasons.push_back(reasons.at(i).as_string());
  c.m_readings = node.at("readings").as_non_negative_integer();
  c.m_reason = optional_string(node, "reason");
  return c;
}

std::vector<format_table> clock_tables() {
  return {{"second_clock (kopt.second_clock, record timing.shapes[].second_clock)", k_second_clock_fields},
          {"second_clock.kernels[]", k_kernel_fields},
          {"clock (kopt.clock, record timing.shapes[].clock)", k_clock_fields}};
}

}  // namespace kopt
