#include "kopt/records/ablation.hpp"

namespace kopt {
namespace {

const std::vector<field_doc> k_ablation_fields = {
    {"utc", "string", "when `kopt ablate` measured it"},
    {"source_sha256", "string", "the variant's source hash it was measured on"},
    {"threshold", "number", "the minimum effect: a smaller change is not a contribution (0.02)"},
    {"repetitions", "integer", "benchmark processes, each timing the variant and its ablations in interleaved rounds"},
    {"quick", "boolean", "timed on the quick shapes only"},
    {"methods", "array", "one per switchable METHOD, in claim order"},
};

const std::vector<field_doc> k_method_fields = {
    {"method", "string", "the METHOD"},
    {"macro", "string", "its switch, 0 in the ablated build"},
    {"impl", "string", "the ablated implementation, `<variant>__no_<method>`"},
    {"class", "string", "`effective`, `ineffective`, `unsure` or `implementation-failed`"},
    {"failure", "string | null", "implementation-failed: `build`, `incorrect`, `crashed` or `benchmark`"},
    {"detail", "string", "the evidence for the class, one line"},
    {"change", "number | null", "geomean over shapes of without / with - 1; null when not timed"},
    {"noise", "number | null", "the relative noise of `change`"},
    {"sass_without", "string", "the method's SASS signature in the ablated build: `present`, `absent`, `no_signature`, `not_checked`"},
    {"shapes", "array", "per timed shape"},
};

const std::vector<field_doc> k_shape_fields = {
    {"shape", "string", "the shape as declared"},
    {"with_ns", "number", "the variant's median (over the repetitions)"},
    {"without_ns", "number", "the ablated build's median"},
    {"attribution_ns", "number", "without - with: the time the method saves (negative: it costs)"},
    {"change", "number", "without / with - 1: the relative attribution"},
    {"noise", "number | null", "combined relative noise of the two medians"},
    {"p_value", "number | null", "the U test's p, with 9 or more repetitions a side"},
    {"verdict", "string", "`kopt compare`'s verdict of without against with (`SLOWER`: the method helps)"},
    {"point", "string | null", "a family's champion point that served the shape, with and without the method; null for a variant that is not a family"},
};

json optional_text(const std::optional<std::string>& value) { return value ? json(*value) : json(nullptr); }

std::optional<double> optional_number(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_number();
}

}  // namespace

const ablation_method* ablation_result::find(const std::string& method) const {
  for (const ablation_method& m : m_methods) {
    if (m.m_method == method) return &m;
  }
  return nullptr;
}

json to_json(const ablation_result& a) {
  json methods = json::array();
  for (const ablation_method& m : a.m_methods) {
    json shapes = json::array();
    for (const ablation_shape& s : m.m_shapes) {
      json shape = {{"shape", s.m_shape},
                    {"with_ns", s.m_with_ns},
                    {"without_ns", s.m_without_ns},
                    {"attribution_ns", s.m_attribution_ns},
                    {"change", s.m_change},
                    {"noise", number_or_null(s.m_noise)},
                    {"p_value", number_or_null(s.m_p_value)},
                    {"verdict", s.m_verdict},
                    {"point", optional_text(s.m_point)}};
      shapes.push_back(std::move(shape));
    }
    methods.push_back({{"method", m.m_method},
                       {"macro", m.m_macro},
                       {"impl", m.m_impl},
                       {"class", m.m_class},
                       {"failure", optional_text(m.m_failure)},
                       {"detail", m.m_detail},
                       {"change", number_or_null(m.m_change)},
                       {"noise", number_or_null(m.m_noise)},
                       {"sass_without", m.m_sass_without},
                       {"shapes", shapes}});
  }
  return {{"utc", a.m_utc},
          {"source_sha256", a.m_source_sha256},
          {"threshold", a.m_threshold},
          {"repetitions", a.m_repetitions},
          {"quick", a.m_quick},
          {"methods", methods}};
}

ablation_result ablation_from_json(const json_reader& node) {
  ablation_result a;
  a.m_utc = node.at("utc").as_string();
  a.m_source_sha256 = node.at("source_sha256").as_string();
  a.m_threshold = node.at("threshold").as_non_negative();
  a.m_repetitions = static_cast<int>(node.at("repetitions").as_count());
  a.m_quick = node.at("quick").as_bool();
  const json_reader methods = node.at("methods");
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const json_reader m = methods.at(i);
    ablation_method method;
    method.m_method = m.at("method").as_string();
    method.m_macro = m.at("macro").as_string();
    method.m_impl = m.at("impl").as_string();
    method.m_class = m.at("class").as_string();
    if (method.m_class != k_ablation_effective && method.m_class != k_ablation_ineffective &&
        method.m_class != k_ablation_unsure && method.m_class != k_ablation_failed) {
      m.at("class").fail("'" + method.m_class + "' is not effective, ineffective, unsure or implementation-failed");
    }
    if (m.has("failure")) method.m_failure = m.at("failure").as_string();
    method.m_detail = m.at("detail").as_string();
    method.m_change = optional_number(m, "change");
    method.m_noise = optional_number(m, "noise");
    method.m_sass_without = m.at("sass_without").as_string();
    const json_reader shapes = m.at("shapes");
    for (std::size_t j = 0; j < shapes.size(); ++j) {
      const json_reader s = shapes.at(j);
      ablation_shape shape;
      shape.m_shape = s.at("shape").as_string();
      shape.m_with_ns = s.at("with_ns").as_positive();
      shape.m_without_ns = s.at("without_ns").as_positive();
      shape.m_attribution_ns = s.at("attribution_ns").as_number();
      shape.m_change = s.at("change").as_number();
      shape.m_noise = optional_number(s, "noise");
      shape.m_p_value = optional_number(s, "p_value");
      shape.m_verdict = s.at("verdict").as_string();
      if (s.has("point")) shape.m_point = s.at("point").as_string();
      method.m_shapes.push_back(shape);
    }
    a.m_methods.push_back(std::move(method));
  }
  return a;
}

std::vector<format_table> ablation_tables() {
  return {{"kernelopt.record: ablation", k_ablation_fields},
          {"kernelopt.record: ablation.methods[]", k_method_fields},
          {"kernelopt.record: ablation.methods[].shapes[]", k_shape_fields}};
}

}  // namespace kopt
