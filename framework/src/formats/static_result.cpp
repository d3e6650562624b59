#include "formats/static_result.hpp"

namespace kopt {
namespace {

const std::vector<field_doc> k_static_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.static`"},
    {"kernel", "string", "the kernel"},
    {"variant", "string", "the variant"},
    {"status", "string", "`pass`, `fail` or `skipped`"},
    {"reason", "string | null", "the first failure, or why it skipped; `null` when it passed"},
    {"tool", "object", "not skipped: `{cuobjdump, version}`, the tool's path and version"},
    {"objects", "array", "not skipped: the object files read"},
    {"sources", "array", "not skipped: the variant's SOURCES (what makes a kernel its own)"},
    {"architectures", "array", "not skipped: the SASS architectures found (`sm_90a`)"},
    {"functions", "array", "not skipped: every function of the objects, own or not"},
    {"methods", "array", "not skipped: one entry per claimed METHOD, in claim order"},
    {"sass_signatures", "array", "not skipped: one entry per SASS_SIGNATURES regex, as `methods`"},
    {"limits", "array", "not skipped: MAX_REGISTERS, NO_SPILLS, NO_LOCAL_MEMORY as declared"},
    {"failures", "array", "not skipped: one line per failure; empty when it passed"},
    {"notes", "array", "not skipped: what the reader should know (lines)"},
    {"definitions", "object", "not skipped: what the terms of the functions' fields mean"},
};

const std::vector<field_doc> k_function_fields = {
    {"name", "string", "demangled"},
    {"mangled", "string", "as in the object"},
    {"own", "boolean", "defined in one of the variant's SOURCES"},
    {"defined_in", "string", "the file that defines it, or `unknown`"},
    {"defined_by", "string", "`line info`, `source text`, or `unknown`: how `defined_in` was found"},
    {"arch", "string", "`sm_90a`"},
    {"object", "string", "the object file"},
    {"registers", "integer | \"unknown\"", "REG of `cuobjdump -res-usage`"},
    {"stack_bytes", "integer | \"unknown\"", "STACK: the per-thread stack frame"},
    {"spill_stores", "integer", "STL instructions (local-memory stores)"},
    {"spill_loads", "integer", "LDL instructions (local-memory loads)"},
    {"local_bytes", "integer | \"unknown\"", "LOCAL"},
    {"shared_bytes", "integer | \"unknown\"", "SHARED: static shared memory per block"},
    {"instructions", "integer", "SASS instructions"},
    {"families", "object", "instructions per opcode family (`FFMA`, `LDG`, ...)"},
};

const std::vector<field_doc> k_claim_fields = {
    {"name", "string", "the METHOD or SASS_SIGNATURES name"},
    {"claimed", "boolean", "`true`"},
    {"signature", "string | null", "the regex; `null`: the method has no SASS signature"},
    {"status", "string", "`found`, `missing` or `no signature`"},
    {"found", "object | string",
     "`{count, functions, elsewhere}` (sites `{function, arch, count}`), or `no signature`"},
    {"archs_without", "array", "found: the architectures in which it matched nothing (only when some)"},
};

const std::vector<field_doc> k_limit_fields = {
    {"name", "string", "`MAX_REGISTERS`, `NO_SPILLS` or `NO_LOCAL_MEMORY`"},
    {"limit", "string", "the limit (`128`, `0 STL/LDL`)"},
    {"status", "string", "`pass` or `fail`"},
    {"violations", "array", "one line per function over the limit"},
};

json integer_or_unknown(const std::optional<std::int64_t>& value) { return value ? json(*value) : json("unknown"); }

std::optional<std::int64_t> read_integer_or_unknown(const json_reader& node) {
  if (node.raw().is_string() && node.raw().get_ref<const std::string&>() == "unknown") return std::nullopt;
  if (!node.raw().is_number()) node.fail("expected an integer or \"unknown\"");
  return node.as_non_negative_integer();
}

std::size_t checked_size(const json_reader& node) {
  const std::size_t count = node.size();
  if (count > k_max_static_list) node.fail("more than " + std::to_string(k_max_static_list) + " entries");
  return count;
}

std::vector<std::string> read_strings(const json_reader& node) {
  std::vector<std::string> out;
  const std::size_t count = checked_size(node);
  for (std::size_t i = 0; i < count; ++i) out.push_back(node.at(i).as_string());
  return out;
}

json to_json(const static_function& f) {
  json families = json::object();
  for (const auto& [family, count] : f.m_families) families[family] = count;
  json out = {{"name", f.m_name}, {"mangled", f.m_mangled}};
  if (f.m_own) out["own"] = *f.m_own;
  if (f.m_defined_in) out["defined_in"] = *f.m_defined_in;
  if (f.m_defined_by) out["defined_by"] = *f.m_defined_by;
  out["arch"] = f.m_arch;
  out["object"] = f.m_object;
  out["registers"] = integer_or_unknown(f.m_registers);
  out["stack_bytes"] = integer_or_unknown(f.m_stack_bytes);
  out["spill_stores"] = f.m_spill_stores;
  out["spill_loads"] = f.m_spill_loads;
  out["local_bytes"] = integer_or_unknown(f.m_local_bytes);
  out["shared_bytes"] = integer_or_unknown(f.m_shared_bytes);
  out["instructions"] = f.m_instructions;
  out["families"] = families;
  return out;
}

static_function function_from_json(const json_reader& node) {
  if (!node.raw().is_object()) node.fail("expected an object (name, mangled, arch, ...)");
  static_function f;
  f.m_name = node.at("name").as_string();
  f.m_mangled = node.at("mangled").as_string();
  if (node.has("own")) f.m_own = node.at("own").as_bool();
  if (node.has("defined_in")) f.m_defined_in = node.at("defined_in").as_string();
  if (node.has("defined_by")) f.m_defined_by = node.at("defined_by").as_string();
  f.m_arch = node.at("arch").as_string();
  f.m_object = node.at("object").as_string();
  f.m_registers = read_integer_or_unknown(node.at("registers"));
  f.m_stack_bytes = read_integer_or_unknown(node.at("stack_bytes"));
  f.m_spill_stores = node.at("spill_stores").as_non_negative_integer();
  f.m_spill_loads = node.at("spill_loads").as_non_negative_integer();
  f.m_local_bytes = read_integer_or_unknown(node.at("local_bytes"));
  f.m_shared_bytes = read_integer_or_unknown(node.at("shared_bytes"));
  f.m_instructions = node.at("instructions").as_non_negative_integer();
  const json_reader families = node.at("families");
  if (!families.raw().is_object()) families.fail("expected an object of counts by opcode family");
  if (families.raw().size() > k_max_static_list)
    families.fail("more than " + std::to_string(k_max_static_list) + " entries");
  for (const auto& item : families.raw().items()) {
    f.m_families[item.key()] = families.at(item.key()).as_non_negative_integer();
  }
  return f;
}

json to_json(const std::vector<static_site>& sites) {
  json out = json::array();
  for (const static_site& s : sites)
    out.push_back({{"function", s.m_function}, {"arch", s.m_arch}, {"count", s.m_count}});
  return out;
}

std::vector<static_site> sites_from_json(const json_reader& node) {
  std::vector<static_site> sites;
  const std::size_t count = checked_size(node);
  for (std::size_t i = 0; i < count; ++i) {
    const json_reader site = node.at(i);
    sites.push_back(
        {site.at("function").as_string(), site.at("arch").as_string(), site.at("count").as_non_negative_integer()});
  }
  return sites;
}

json to_json(const static_claim& c) {
  json found;
  if (c.m_status == "no signature") {
    found = "no signature";
  } else {
    found = {{"count", c.m_count}, {"functions", to_json(c.m_functions)}};
    if (c.m_elsewhere) found["elsewhere"] = to_json(*c.m_elsewhere);
  }
  json entry = {{"name", c.m_name},
                {"claimed", c.m_claimed},
                {"signature", c.m_signature ? json(*c.m_signature) : json(nullptr)},
                {"status", c.m_status},
                {"found", found}};
  if (!c.m_archs_without.empty()) entry["archs_without"] = c.m_archs_without;
  return entry;
}

static_claim claim_from_json(const json_reader& node) {
  if (!node.raw().is_object()) node.fail("expected an object (name, claimed, signature, status, found)");
  static_claim c;
  c.m_name = node.at("name").as_string();
  c.m_claimed = node.at("claimed").as_bool();
  if (node.has("signature")) c.m_signature = node.at("signature").as_string();
  c.m_status = node.at("status").as_string();
  const json_reader found = node.at("found");
  if (c.m_status == "no signature") {
    if (found.as_string() != "no signature") found.fail("expected \"no signature\" (as status)");
  } else if (c.m_status == "found" || c.m_status == "missing") {
    if (!found.raw().is_object()) found.fail("expected an object (count, functions, elsewhere)");
    c.m_count = found.at("count").as_non_negative_integer();
    c.m_functions = sites_from_json(found.at("functions"));
    if (found.has("elsewhere")) c.m_elsewhere = sites_from_json(found.at("elsewhere"));
  } else {
    node.at("status").fail("expected \"found\", \"missing\" or \"no signature\", got \"" + shorten(c.m_status) + "\"");
  }
  if (node.has("archs_without")) c.m_archs_without = read_strings(node.at("archs_without"));
  return c;
}

std::vector<static_claim> claims_from_json(const json_reader& node) {
  std::vector<static_claim> claims;
  const std::size_t count = checked_size(node);
  for (std::size_t i = 0; i < count; ++i) claims.push_back(claim_from_json(node.at(i)));
  return claims;
}

static_limit limit_from_json(const json_reader& node) {
  if (!node.raw().is_object()) node.fail("expected an object (name, limit, status, violations)");
  static_limit l;
  l.m_name = node.at("name").as_string();
  l.m_limit = node.at("limit").as_string();
  const std::string status = node.at("status").as_string();
  if (status != "pass" && status != "fail") {
    node.at("status").fail("expected \"pass\" or \"fail\", got \"" + shorten(status) + "\"");
  }
  l.m_pass = status == "pass";
  l.m_violations = read_strings(node.at("violations"));
  return l;
}

static_findings findings_from_json(const json_reader& node) {
  static_findings f;
  const json_reader tool = node.at("tool");
  if (!tool.raw().is_object()) tool.fail("expected an object (cuobjdump, version)");
  f.m_cuobjdump = tool.at("cuobjdump").as_string();
  f.m_cuobjdump_version = tool.at("version").as_string();
  f.m_objects = read_strings(node.at("objects"));
  if (node.has("sources")) f.m_sources = read_strings(node.at("sources"));
  f.m_architectures = read_strings(node.at("architectures"));
  const json_reader functions = node.at("functions");
  const std::size_t count = checked_size(functions);
  for (std::size_t i = 0; i < count; ++i) f.m_functions.push_back(function_from_json(functions.at(i)));
  f.m_methods = claims_from_json(node.at("methods"));
  f.m_sass_signatures = claims_from_json(node.at("sass_signatures"));
  const json_reader limits = node.at("limits");
  const std::size_t limit_count = checked_size(limits);
  for (std::size_t i = 0; i < limit_count; ++i) f.m_limits.push_back(limit_from_json(limits.at(i)));
  f.m_failures = read_strings(node.at("failures"));
  f.m_notes = read_strings(node.at("notes"));
  const json_reader definitions = node.at("definitions");
  if (!definitions.raw().is_object()) definitions.fail("expected an object of meanings by term");
  if (definitions.raw().size() > k_max_static_list)
    definitions.fail("more than " + std::to_string(k_max_static_list) + " entries");
  for (const auto& item : definitions.raw().items()) {
    f.m_definitions.emplace_back(item.key(), definitions.at(item.key()).as_string());
  }
  return f;
}

}  // namespace

json to_json(const static_result& r) {
  json doc = {{"schema_version", k_static_schema_version},
              {"kind", k_static_kind},
              {"kernel", r.m_kernel},
              {"variant", r.m_variant},
              {"status", r.m_status},
              {"reason", r.m_reason ? json(*r.m_reason) : json(nullptr)}};
  if (!r.m_findings) return doc;
  const static_findings& f = *r.m_findings;
  json functions = json::array();
  for (const static_function& fn : f.m_functions) functions.push_back(to_json(fn));
  json methods = json::array();
  for (const static_claim& c : f.m_methods) methods.push_back(to_json(c));
  json user = json::array();
  for (const static_claim& c : f.m_sass_signatures) user.push_back(to_json(c));
  json limits = json::array();
  for (const static_limit& l : f.m_limits) {
    limits.push_back({{"name", l.m_name},
                      {"limit", l.m_limit},
                      {"status", l.m_pass ? "pass" : "fail"},
                      {"violations", l.m_violations}});
  }
  json definitions = json::object();
  for (const auto& [term, meaning] : f.m_definitions) definitions[term] = meaning;
  doc["tool"] = {{"cuobjdump", f.m_cuobjdump}, {"version", f.m_cuobjdump_version}};
  doc["objects"] = f.m_objects;
  if (f.m_sources) doc["sources"] = *f.m_sources;
  doc["architectures"] = f.m_architectures;
  doc["functions"] = functions;
  doc["methods"] = methods;
  doc["sass_signatures"] = user;
  doc["limits"] = limits;
  doc["failures"] = f.m_failures;
  doc["notes"] = f.m_notes;
  doc["definitions"] = definitions;
  return doc;
}

static_result static_result_from_json(const json_reader& node) {
  (void)check_kind(node, k_static_kind, k_static_schema_version);
  static_result r;
  r.m_kernel = node.at("kernel").as_string();
  r.m_variant = node.at("variant").as_string();
  r.m_status = node.at("status").as_string();
  if (r.m_status != "pass" && r.m_status != "fail" && r.m_status != "skipped") {
    node.at("status").fail("expected \"pass\", \"fail\" or \"skipped\", got \"" + shorten(r.m_status) + "\"");
  }
  if (node.has("reason")) r.m_reason = node.at("reason").as_string();
  if (r.m_status != "pass" && !r.m_reason) node.at("reason").fail("missing: a " + r.m_status + " says why");
  if (!r.skipped()) r.m_findings = findings_from_json(node);
  return r;
}

static_result read_static_result(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  return static_result_from_json(json_reader(doc, path.string()));
}

std::vector<format_table> static_tables() {
  return {{"kernelopt.static", k_static_fields},
          {"kernelopt.static: functions[]", k_function_fields},
          {"kernelopt.static: methods[], sass_signatures[]", k_claim_fields},
          {"kernelopt.static: limits[]", k_limit_fields}};
}

}  // namespace kopt
