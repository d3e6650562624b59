#include "formats/tolerance.hpp"

namespace kopt {
namespace {

const std::vector<field_doc> k_fields = {
    {"rtol", "number", "relative tolerance (>= 0)"},
    {"atol", "number", "absolute tolerance (>= 0)"},
    {"max_rel_l2", "number | null", "bound on the relative L2 error; absent or `null`: none"},
    {"source", "string", "where it comes from (`TOLERANCE`, `default for f32`)"},
};

}  // namespace

json to_json(const std::optional<declared_tolerance>& t) {
  if (!t) return nullptr;
  json j = {{"rtol", t->m_rtol}, {"atol", t->m_atol}};
  if (t->m_max_rel_l2) j["max_rel_l2"] = *t->m_max_rel_l2;
  j["source"] = t->m_source;
  return j;
}

std::optional<declared_tolerance> tolerance_from_json(const json_reader& node) {
  if (node.is_null()) return std::nullopt;
  if (!node.raw().is_object()) node.fail("expected an object {rtol, atol, ...} or null");
  declared_tolerance t;
  t.m_rtol = node.at("rtol").as_non_negative();
  t.m_atol = node.at("atol").as_non_negative();
  if (node.has("max_rel_l2")) t.m_max_rel_l2 = node.at("max_rel_l2").as_non_negative();
  if (node.has("source")) t.m_source = node.at("source").as_string();
  return t;
}

format_table tolerance_table() { return {"tolerance", k_fields}; }

}  // namespace kopt
