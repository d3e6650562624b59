#include "bench/bench_json.hpp"

namespace kopt::bench {
namespace {

const std::string* registered_name(const std::string& run_name, const results_by_name& results) {
  const std::string* best = nullptr;
  for (const auto& [name, runs] : results) {
    const bool match = run_name == name || (run_name.size() > name.size() && run_name.compare(0, name.size(), name) == 0 &&
                                            run_name[name.size()] == '/');
    if (match && (best == nullptr || name.size() > best->size())) best = &name;
  }
  return best;
}

std::string string_field(const json& entry, const char* key) {
  const auto it = entry.find(key);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

json merge_kopt(const json& doc, const json& top, const results_by_name& results) {
  json merged = json::object();
  for (const auto& [key, value] : doc.items()) {
    if (key == "kopt") continue;
    merged[key] = value;
    if (key == "context") merged["kopt"] = top;
  }
  if (!merged.contains("kopt")) merged["kopt"] = top;

  std::map<std::string, std::size_t> used;
  json& benchmarks = merged["benchmarks"];
  if (!benchmarks.is_array()) return merged;
  for (json& entry : benchmarks) {
    if (!entry.is_object()) continue;
    const std::string run_type = string_field(entry, "run_type");
    if (!run_type.empty() && run_type != "iteration") continue;
    std::string run_name = string_field(entry, "run_name");
    if (run_name.empty()) run_name = string_field(entry, "name");
    const std::string* name = registered_name(run_name, results);
    if (name == nullptr) continue;
    const std::vector<json>& runs = results.at(*name);
    std::size_t& next = used[*name];
    if (next < runs.size()) entry["kopt"] = runs[next++];
  }
  return merged;
}

void add_kopt_to_file(const std::filesystem::path& file, const json& top, const results_by_name& results) {
  write_json_atomic(file, merge_kopt(read_json_file(file), top, results));
}

}  // namespace kopt::bench
