// A static check's result (`kernelopt.static`): the one type its writers
// and readers share. Written by `kopt static` and `kopt optimize`
// (static/check.hpp report_json / skipped_json fill it in from a check's
// report); read by `kopt record --static`, which embeds it in the record,
// and by the record's reader. A value cuobjdump did not report is nullopt,
// written "unknown".
//
// Documents of schema 1 written before ownership existed have no
// `sources`, and their functions no `own`, `defined_in`, `defined_by`:
// those are nullopt when read and left out when written again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"

namespace kopt {

inline constexpr const char* k_static_kind = "kernelopt.static";
inline constexpr int k_static_schema_version = 1;

// Limits on a read document (beyond read_json_file's size and depth).
inline constexpr std::size_t k_max_static_list = 100000;  // functions, claims, sites, strings per list

struct static_function {
  std::string m_name;  // demangled
  std::string m_mangled;
  std::optional<bool> m_own;                // defined in one of the variant's SOURCES
  std::optional<std::string> m_defined_in;  // a path, or "unknown"
  std::optional<std::string> m_defined_by;  // "line info", "source text", or "unknown"
  std::string m_arch;                       // "sm_90a"
  std::string m_object;
  std::optional<std::int64_t> m_registers;
  std::optional<std::int64_t> m_stack_bytes;
  std::int64_t m_spill_stores = 0;  // STL instructions
  std::int64_t m_spill_loads = 0;   // LDL instructions
  std::optional<std::int64_t> m_local_bytes;
  std::optional<std::int64_t> m_shared_bytes;
  std::int64_t m_instructions = 0;
  std::map<std::string, std::int64_t> m_families;  // opcode family -> count
};

struct static_site {
  std::string m_function;
  std::string m_arch;
  std::int64_t m_count = 0;
};

// A claimed METHOD or a SASS_SIGNATURES entry.
struct static_claim {
  std::string m_name;
  bool m_claimed = true;
  std::optional<std::string> m_signature;  // the regex; nullopt: no SASS signature
  std::string m_status;                    // "found", "missing" or "no signature"
  // Unless m_status is "no signature":
  std::int64_t m_count = 0;
  std::vector<static_site> m_functions;  // own functions that match
  // Other functions that match: not counted. nullopt in documents written
  // before ownership existed.
  std::optional<std::vector<static_site>> m_elsewhere;
  std::vector<std::string> m_archs_without;  // written only when not empty
};

struct static_limit {
  std::string m_name;   // "MAX_REGISTERS", "NO_SPILLS", "NO_LOCAL_MEMORY"
  std::string m_limit;  // "128", "0 STL/LDL"
  bool m_pass = true;
  std::vector<std::string> m_violations;
};

// What a run that checked something has beyond a skipped one's fields.
struct static_findings {
  std::string m_cuobjdump;  // the tool's path
  std::string m_cuobjdump_version;
  std::vector<std::string> m_objects;
  std::optional<std::vector<std::string>> m_sources;  // the variant's SOURCES
  std::vector<std::string> m_architectures;
  std::vector<static_function> m_functions;
  std::vector<static_claim> m_methods;
  std::vector<static_claim> m_sass_signatures;
  std::vector<static_limit> m_limits;
  std::vector<std::string> m_failures;
  std::vector<std::string> m_notes;
  std::vector<std::pair<std::string, std::string>> m_definitions;  // term -> meaning, in file order
};

struct static_result {
  std::string m_kernel;
  std::string m_variant;
  std::string m_status;                       // "pass", "fail" or "skipped"
  std::optional<std::string> m_reason;        // the first failure, or why it skipped; nullopt when passed
  std::optional<static_findings> m_findings;  // nullopt exactly when skipped

  [[nodiscard]] bool skipped() const { return m_status == "skipped"; }
};

[[nodiscard]] json to_json(const static_result& result);
// `node` is the document (or a record's embedded copy): kind and
// schema_version checked; status one of pass, fail, skipped; every field
// of its type. Throws format_error naming the file and the JSON pointer.
[[nodiscard]] static_result static_result_from_json(const json_reader& node);
[[nodiscard]] static_result read_static_result(const std::filesystem::path& path);

// Tables (docs/formats.md): the document, a function, a claim, a limit.
[[nodiscard]] std::vector<format_table> static_tables();

}  // namespace kopt
