// kopt experience add|list|search|stats|merge: the experience store
// (kopt/experience/store.hpp), one JSON file per entry.
#include <algorithm>
#include <ostream>

#include "core/format.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/cli/json_output.hpp"
#include "kopt/experience/from_record.hpp"
#include "kopt/experience/store.hpp"
#include "kopt/records/record_store.hpp"

namespace kopt::cli {
namespace {

std::filesystem::path store_of(const arguments& args, const manifest* m) {
  const auto dir = experience_dir(args.optional_value("--store"), m);
  if (!dir) throw usage_error("no store: give --store DIR, --manifest FILE or set KOPT_EXPERIENCE_DIR");
  return *dir;
}

bool matches(const experience_entry& e, const arguments& args) {
  auto same = [&](const char* option, const std::string& value) {
    const auto wanted = args.optional_value(option);
    return !wanted || *wanted == value;
  };
  if (!same("--kernel", e.m_kernel) || !same("--bottleneck", e.m_bottleneck_before) || !same("--gpu", e.m_gpu) ||
      !same("--outcome", e.m_outcome)) {
    return false;
  }
  if (const auto method = args.optional_value("--method")) {
    if (std::find(e.m_methods.begin(), e.m_methods.end(), *method) == e.m_methods.end()) return false;
  }
  if (const auto text = args.optional_value("--text")) {
    const std::string haystack = e.m_hypothesis + " " + join(e.m_methods, " ") + " " + e.m_kernel;
    if (haystack.find(*text) == std::string::npos) return false;
  }
  return true;
}

void print_entry(std::ostream& out, const experience_entry& e) {
  out << e.m_id << "  " << e.m_date.substr(0, 10) << "  " << e.m_kernel << "/" << e.m_variant << "  "
      << e.m_decision << "  " << e.m_outcome << "  " << format_speedup(e.m_speedup_vs_parent) << " vs parent  ["
      << (e.m_methods.empty() ? std::string("-") : join(e.m_methods, ",")) << "]  " << e.m_backend << " / "
      << e.m_gpu << "  " << e.m_bottleneck_before << " -> " << e.m_bottleneck_after << "\n";
}

void print_added(const arguments& args, const experience_add_output& doc, std::ostream& out) {
  if (args.has("--json")) {
    out << to_json(doc).dump(2) << "\n";
  } else {
    out << "experience " << doc.m_store << ": " << doc.m_added << " added, " << doc.m_present << " already there\n";
  }
}

int add(const arguments& args, std::ostream& out) {
  if (!args.has("--manifest")) throw usage_error("experience add needs --manifest FILE");
  const manifest m = read_manifest_of(args);
  const std::filesystem::path store = store_of(args, &m);
  entry_options options;
  options.m_repository = args.optional_value("--origin").value_or("");
  options.m_kernel_class = args.optional_value("--kernel-class");
  const record_set records = load_records(m);
  experience_add_output doc;
  doc.m_store = store.string();
  for (const experience_entry& e : entries_of(m, records, options)) {
    const bool is_new = add_experience(store, e);
    (is_new ? doc.m_added : doc.m_present)++;
    doc.m_entries.push_back({e.m_id, e.m_variant, is_new});
    if (!args.has("--json")) out << (is_new ? "added   " : "present ") << e.m_id << "  " << e.m_source.m_record << "\n";
  }
  print_added(args, doc, out);
  return k_exit_ok;
}

int merge(const arguments& args, std::ostream& out) {
  const std::filesystem::path store = store_of(args, nullptr);
  if (args.positionals().size() < 2) throw usage_error("experience merge needs one or more store folders to merge");
  experience_add_output doc;
  doc.m_store = store.string();
  for (std::size_t i = 1; i < args.positionals().size(); ++i) {
    const std::filesystem::path from = args.positionals()[i];
    if (!std::filesystem::is_directory(from)) throw std::runtime_error(from.string() + ": not a folder");
    for (const experience_entry& e : read_experience(from)) (add_experience(store, e) ? doc.m_added : doc.m_present)++;
  }
  print_added(args, doc, out);
  return k_exit_ok;
}

int stats(const arguments& args, const std::filesystem::path& store, const std::vector<experience_entry>& all,
          std::ostream& out) {
  experience_stats_output doc;
  doc.m_store = store.string();
  for (const experience_entry& e : all) {
    if (!matches(e, args)) continue;
    ++doc.m_entries;
    for (const std::string& method : e.m_methods) {
      method_tally& t = doc.m_methods[method];
      (e.m_outcome == "success" ? t.m_success : e.m_outcome == "neutral" ? t.m_neutral
                                              : e.m_outcome == "failure" ? t.m_failure : t.m_other)++;
    }
  }
  if (args.has("--json")) {
    out << to_json(doc).dump(2) << "\n";
    return k_exit_ok;
  }
  out << "experience " << doc.m_store << ": " << doc.m_entries << " entries\n";
  for (const auto& [name, t] : doc.m_methods) {
    out << "  " << name << ": " << t.m_success << " success, " << t.m_neutral << " neutral, " << t.m_failure
        << " failure" << (t.m_other ? ", " + std::to_string(t.m_other) + " other" : std::string()) << "\n";
  }
  return k_exit_ok;
}

}  // namespace

void record_experience(const manifest& m, const std::string& variant, std::ostream& out) {
  try {
    const std::filesystem::path store = *experience_dir(std::nullopt, &m);
    const record_set records = load_records(m);
    const int index = m.variant_index(variant);
    const auto entry = index < 0 ? std::nullopt : entry_of(m, records, static_cast<std::size_t>(index), {});
    if (!entry) return;
    const bool added = add_experience(store, *entry);
    out << "experience -> " << (store / (entry->m_id + ".json")).string() << (added ? "" : " (already there)")
        << "\n";
  } catch (const std::exception& e) {
    // The record stands; the store can be filled later with `kopt experience add`.
    out << "experience: not added (" << e.what() << "); run `kopt experience add`\n";
  }
}

int cmd_experience(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  if (args.positionals().empty()) throw usage_error("which action: add, list, search, stats or merge");
  const std::string& action = args.positionals().front();
  if (action == "add" || action == "merge") {
    if (args.positionals().size() > 1 && action == "add") throw usage_error("experience add takes no folder");
    return action == "add" ? add(args, out) : merge(args, out);
  }
  if (action != "list" && action != "search" && action != "stats") {
    throw usage_error("unknown action '" + shorten(action) + "': expected add, list, search, stats or merge");
  }
  if (args.positionals().size() > 1) throw usage_error("experience " + action + " takes no folder");
  std::optional<manifest> m;
  if (args.has("--manifest")) m = read_manifest_of(args);
  const std::filesystem::path store = store_of(args, m ? &*m : nullptr);
  const std::vector<experience_entry> all = read_experience(store);
  if (action == "stats") return stats(args, store, all, out);
  experience_list_output doc{action, store.string(), {}};
  for (const experience_entry& e : all) {
    if (action == "list" ? !args.has("--kernel") || e.m_kernel == args.value("--kernel") : matches(e, args)) {
      doc.m_entries.push_back(e);
    }
  }
  if (args.has("--json")) {
    out << to_json(doc).dump(2) << "\n";
    return k_exit_ok;
  }
  for (const experience_entry& e : doc.m_entries) print_entry(out, e);
  out << doc.m_entries.size() << " of " << all.size() << " entries in " << store.string() << "\n";
  return k_exit_ok;
}

}  // namespace kopt::cli
