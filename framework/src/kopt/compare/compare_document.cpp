#include "kopt/compare/compare_document.hpp"

#include "core/format.hpp"

namespace kopt {
namespace {

const char* const k_compare_kind = "kernelopt.compare";

const std::vector<field_doc> k_compare_fields = {
    {"schema_version", "integer", "2 (1, before repetitions: no `utest_*`, `band`, `*_repetitions` or `p_value`)"},
    {"kind", "string", "`kernelopt.compare`"},
    {"base", "string", "the base set as named on the command line (bench JSON or record)"},
    {"new", "string", "the new set, likewise"},
    {"threshold", "number", "the minimum effect: relative change below which a row is SAME"},
    {"noise_sigmas", "number", "without the U test, a change must exceed this many combined noises to be FASTER or SLOWER"},
    {"utest_alpha", "number", "the Mann-Whitney U test's significance level (0.05)"},
    {"utest_min_repetitions", "integer", "repetitions each side needs for the U test to decide (9)"},
    {"rows", "array", "one per row matched by impl and shape (by shape alone for two single-variant sets)"},
    {"geomean", "object | null", "the summary row over `rows` (same fields), null without rows"},
    {"only_base", "array", "rows of base without a partner, as \"impl shape\""},
    {"only_new", "array", "rows of new without a partner, likewise"},
    {"slower", "boolean", "whether some row (or the geomean) is SLOWER: kopt compare then exits 1"},
};

const std::vector<field_doc> k_row_fields = {
    {"impl", "string", "the implementation, or \"base_impl -> new_impl\" when matched by shape alone"},
    {"shape", "string", "the shape as declared, or \"geomean\""},
    {"base_ns", "number", "base median (geomean row: geometric mean)"},
    {"new_ns", "number", "new median, likewise"},
    {"change", "number", "new / base - 1"},
    {"noise", "number | null", "combined relative noise of the two medians; null when either is unknown"},
    {"band", "number", "the SAME band this row used: threshold, or kopt perf's measured band when wider"},
    {"base_repetitions", "integer | null", "repetitions of base merged into the row; null on the geomean row"},
    {"new_repetitions", "integer | null", "repetitions of new, likewise"},
    {"p_value", "number | null", "the U test's p; null when a side had fewer than `utest_min_repetitions`"},
    {"verdict", "string", "FASTER, SLOWER, SAME or UNSURE (docs/loop.md, \"Comparing runs\")"},
};

json row_to_json(const verdict_row& row) {
  return {{"impl", row.m_impl},
          {"shape", row.m_shape},
          {"base_ns", row.m_base_ns},
          {"new_ns", row.m_new_ns},
          {"change", row.m_change},
          {"noise", number_or_null(row.m_noise)},
          {"band", row.m_threshold},
          {"base_repetitions", row.m_base_repetitions == 0 ? json(nullptr) : json(row.m_base_repetitions)},
          {"new_repetitions", row.m_new_repetitions == 0 ? json(nullptr) : json(row.m_new_repetitions)},
          {"p_value", number_or_null(row.m_p_value)},
          {"verdict", to_string(row.m_verdict)}};
}

verdict_row row_from_json(const json_reader& node) {
  verdict_row row;
  row.m_impl = node.at("impl").as_string();
  row.m_shape = node.at("shape").as_string();
  row.m_base_ns = node.at("base_ns").as_number();
  row.m_new_ns = node.at("new_ns").as_number();
  row.m_change = node.at("change").as_number();
  if (node.has("noise")) row.m_noise = node.at("noise").as_non_negative();
  row.m_threshold = node.at("band").as_non_negative();
  // null: the geomean row (0, as compute_verdicts writes it).
  row.m_base_repetitions =
      node.has("base_repetitions") ? static_cast<std::size_t>(node.at("base_repetitions").as_count()) : 0;
  row.m_new_repetitions =
      node.has("new_repetitions") ? static_cast<std::size_t>(node.at("new_repetitions").as_count()) : 0;
  if (node.has("p_value")) {
    const double p = node.at("p_value").as_non_negative();
    if (p > 1) node.at("p_value").fail("a p-value is at most 1");
    row.m_p_value = p;
  }
  const std::string text = node.at("verdict").as_string();
  const std::optional<verdict> v = verdict_from_string(text);
  if (!v) node.at("verdict").fail("expected FASTER, SLOWER, SAME or UNSURE, got \"" + shorten(text) + "\"");
  row.m_verdict = *v;
  return row;
}

std::vector<std::string> strings(const json_reader& node) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < node.size(); ++i) out.push_back(node.at(i).as_string());
  return out;
}

}  // namespace

json to_json(const compare_document& doc) {
  const compare_result& r = doc.m_result;
  json rows = json::array();
  for (const verdict_row& row : r.m_rows) rows.push_back(row_to_json(row));
  return {{"schema_version", k_compare_schema_version},
          {"kind", k_compare_kind},
          {"base", doc.m_base},
          {"new", doc.m_new},
          {"threshold", r.m_threshold},
          {"noise_sigmas", doc.m_noise_sigmas},
          {"utest_alpha", doc.m_utest_alpha},
          {"utest_min_repetitions", doc.m_utest_min_repetitions},
          {"rows", rows},
          {"geomean", r.m_geomean ? row_to_json(*r.m_geomean) : json(nullptr)},
          {"only_base", r.m_only_base},
          {"only_new", r.m_only_new},
          {"slower", r.any_slower()}};
}

compare_document compare_document_from_json(const json_reader& root) {
  (void)check_kind(root, k_compare_kind, k_compare_schema_version);
  compare_document doc;
  doc.m_base = root.at("base").as_string();
  doc.m_new = root.at("new").as_string();
  doc.m_noise_sigmas = root.at("noise_sigmas").as_non_negative();
  doc.m_utest_alpha = root.at("utest_alpha").as_non_negative();
  doc.m_utest_min_repetitions = static_cast<std::size_t>(root.at("utest_min_repetitions").as_count());
  compare_result& r = doc.m_result;
  r.m_threshold = root.at("threshold").as_non_negative();
  const json_reader rows = root.at("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) r.m_rows.push_back(row_from_json(rows.at(i)));
  if (root.has("geomean")) r.m_geomean = row_from_json(root.at("geomean"));
  r.m_only_base = strings(root.at("only_base"));
  r.m_only_new = strings(root.at("only_new"));
  if (root.at("slower").as_bool() != r.any_slower()) {
    root.at("slower").fail(r.any_slower() ? "false, but a row is SLOWER" : "true, but no row is SLOWER");
  }
  return doc;
}

std::vector<format_table> compare_tables() {
  return {{"kernelopt.compare", k_compare_fields}, {"kernelopt.compare: rows[]", k_row_fields}};
}

}  // namespace kopt
