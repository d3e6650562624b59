#include "kopt/experience/entry.hpp"

#include "kopt/records/sha256.hpp"

namespace kopt {
namespace {

const std::vector<field_doc> k_experience_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.experience`"},
    {"id", "string", "16 hex digits of SHA-256 over kernel, variant, date and source hash: the file's name"},
    {"kernel", "string", "the kernel's name"},
    {"kernel_class", "string", "`--kernel-class`, else the kernel's name up to its first `_`"},
    {"dtype", "string", "the dtypes of the `in` / `inout` ARGS joined with `,`, or `unknown`"},
    {"backend", "string", "`cuda` or `host`"},
    {"gpu", "string", "the device the benchmark named, or `unknown`"},
    {"variant", "string", "the record's variant"},
    {"parent", "string | null", "its parent; null for the root"},
    {"bottleneck_before", "string", "the parent record's profile bottleneck, `not profiled`, `none (root)`"},
    {"bottleneck_after", "string", "this record's, likewise"},
    {"methods", "array", "the variant's METHODS"},
    {"hypothesis", "string", "the variant's HYPOTHESIS"},
    {"speedup_vs_parent", "number | null", "geometric mean over shapes of the per-shape speedups; null when a shape lacks one"},
    {"speedup_vs_best", "number | null", "likewise, over the best before it"},
    {"decision", "string", "the gate's: ACCEPT or REJECT"},
    {"outcome", "string", "`success`, `neutral`, `failure`, `root` or `unknown`"},
    {"date", "string", "the record's `created_utc`"},
    {"source", "object", "where the record lived"},
};

const std::vector<field_doc> k_experience_source_fields = {
    {"repository", "string", "`--origin`, else the records folder"},
    {"record", "string", "`<kernel>/<variant>.json` under the records folder"},
    {"source_hash", "string", "the record's source hash"},
};

std::optional<double> optional_number(const json_reader& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.at(key).as_positive();
}

}  // namespace

std::string outcome_class(bool root, bool correct, std::optional<double> speedup) {
  if (!correct) return "failure";
  if (root) return "root";
  if (!speedup) return "unknown";
  if (*speedup > k_success_above) return "success";
  if (*speedup >= k_neutral_from) return "neutral";
  return "failure";
}

std::string entry_id(const experience_entry& e) {
  return sha256_hex(e.m_kernel + "\n" + e.m_variant + "\n" + e.m_date + "\n" + e.m_source.m_source_hash)
      .substr(0, 16);
}

std::string default_kernel_class(const std::string& kernel) { return kernel.substr(0, kernel.find('_')); }

json to_json(const experience_entry& e) {
  return {{"schema_version", k_experience_schema_version},
          {"kind", k_experience_kind},
          {"id", e.m_id},
          {"kernel", e.m_kernel},
          {"kernel_class", e.m_kernel_class},
          {"dtype", e.m_dtype},
          {"backend", e.m_backend},
          {"gpu", e.m_gpu},
          {"variant", e.m_variant},
          {"parent", e.m_parent ? json(*e.m_parent) : json(nullptr)},
          {"bottleneck_before", e.m_bottleneck_before},
          {"bottleneck_after", e.m_bottleneck_after},
          {"methods", e.m_methods},
          {"hypothesis", e.m_hypothesis},
          {"speedup_vs_parent", number_or_null(e.m_speedup_vs_parent)},
          {"speedup_vs_best", number_or_null(e.m_speedup_vs_best)},
          {"decision", e.m_decision},
          {"outcome", e.m_outcome},
          {"date", e.m_date},
          {"source",
           {{"repository", e.m_source.m_repository},
            {"record", e.m_source.m_record},
            {"source_hash", e.m_source.m_source_hash}}}};
}

experience_entry experience_from_json(const json& doc, const std::string& file) {
  const json_reader root(doc, file);
  if (root.at("kind").as_string() != k_experience_kind) root.at("kind").fail("expected kernelopt.experience");
  if (root.at("schema_version").as_integer() != k_experience_schema_version) {
    root.at("schema_version").fail("unsupported (this kopt reads " + std::to_string(k_experience_schema_version) + ")");
  }
  experience_entry e;
  e.m_id = root.at("id").as_string();
  e.m_kernel = root.at("kernel").as_string();
  e.m_kernel_class = root.at("kernel_class").as_string();
  e.m_dtype = root.at("dtype").as_string();
  e.m_backend = root.at("backend").as_string();
  e.m_gpu = root.at("gpu").as_string();
  e.m_variant = root.at("variant").as_string();
  if (root.has("parent")) e.m_parent = root.at("parent").as_string();
  e.m_bottleneck_before = root.at("bottleneck_before").as_string();
  e.m_bottleneck_after = root.at("bottleneck_after").as_string();
  const json_reader methods = root.at("methods");
  for (std::size_t i = 0; i < methods.size(); ++i) e.m_methods.push_back(methods.at(i).as_string());
  e.m_hypothesis = root.at("hypothesis").as_string();
  e.m_speedup_vs_parent = optional_number(root, "speedup_vs_parent");
  e.m_speedup_vs_best = optional_number(root, "speedup_vs_best");
  e.m_decision = root.at("decision").as_string();
  e.m_outcome = root.at("outcome").as_string();
  e.m_date = root.at("date").as_string();
  const json_reader source = root.at("source");
  e.m_source.m_repository = source.at("repository").as_string();
  e.m_source.m_record = source.at("record").as_string();
  e.m_source.m_source_hash = source.at("source_hash").as_string();
  if (e.m_id != entry_id(e)) root.at("id").fail("does not match the entry's content (expected " + entry_id(e) + ")");
  return e;
}

std::vector<format_table> experience_tables() {
  return {{"kernelopt.experience", k_experience_fields}, {"kernelopt.experience: source", k_experience_source_fields}};
}

}  // namespace kopt
