// The source hash of a variant: what the gate checks so that a record can
// never describe code other than the code in the tree.
//
// sha256 over, for each file in order: the file's base name, a NUL byte,
// its size in bytes as decimal digits, a NUL byte, its bytes. Base names
// rather than paths so that a checkout elsewhere hashes the same; sizes so
// that file boundaries cannot shift unnoticed.
//
// Two scopes. "sources" (records made before the build scope): the files
// of the manifest's `sources`, in that order. "build" (every record made
// now): those files, then every header they include with `#include "..."`,
// transitively (found beside the including file, then in the absolute `-I`
// directories of COMPILE_OPTIONS; files not found there, and <...>
// includes, are the toolchain's and not hashed), in the order first met;
// then the text of each COMPILE_OPTIONS entry. An edited shared header or
// changed compile options make the record stale, and nobody has to list
// headers in SOURCES. "compile" (records made from a manifest with a
// `build_context`): as "build", with the headers also looked for, `"..."`
// and `<...>` alike, in the context's include directories (the project's
// own: the toolchain's are not in it), then the text of each compile
// definition and each option of the context: a header found through
// include_directories() or a definition added with
// add_compile_definitions() makes the record stale too (an audit: neither
// did, and an identical copy of the slowed best was accepted at 4x).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt {

inline constexpr const char* k_scope_sources = "sources";
inline constexpr const char* k_scope_build = "build";
inline constexpr const char* k_scope_compile = "compile";

struct source_file {
  std::string m_name;    // base name
  std::string m_sha256;  // of the file's bytes alone
};

struct source_hash {
  std::string m_sha256;
  std::vector<source_file> m_files;
  std::string m_scope = k_scope_sources;
  std::vector<std::string> m_compile_options;  // scopes "build" and "compile"
  std::vector<std::string> m_compile_definitions;  // scope "compile": the build context's
  std::vector<std::string> m_context_options;      // scope "compile": the build context's options
};

// Throws std::runtime_error naming the file when one cannot be read.
[[nodiscard]] source_hash hash_sources(const std::vector<std::string>& paths);
[[nodiscard]] source_hash hash_build(const std::vector<std::string>& sources,
                                     const std::vector<std::string>& compile_options);
[[nodiscard]] source_hash hash_compile(const std::vector<std::string>& sources,
                                       const std::vector<std::string>& compile_options, const build_context& context);
// The hash of a variant as records are made now: scope "compile" when the
// manifest has its build context, else "build".
[[nodiscard]] source_hash hash_variant(const variant_decl& decl);

// The headers the "build" scope adds to `sources`, in the order first met.
[[nodiscard]] std::vector<std::filesystem::path> included_headers(const std::vector<std::string>& sources,
                                                                  const std::vector<std::string>& compile_options);
// The headers the "compile" scope adds: also found in `include_dirs`, and
// `<...>` includes too.
[[nodiscard]] std::vector<std::filesystem::path> included_headers(const std::vector<std::string>& sources,
                                                                  const std::vector<std::string>& compile_options,
                                                                  const std::vector<std::string>& include_dirs,
                                                                  bool angle_includes);

[[nodiscard]] json to_json(const source_hash& hash);
[[nodiscard]] source_hash source_hash_from_json(const json_reader& node);

// The current source hash of the candidate in `scope`, or why it could not
// be computed.
struct current_source {
  std::optional<source_hash> m_hash;
  std::string m_error;
};
[[nodiscard]] current_source hash_current_sources(const manifest& m, const std::string& variant,
                                                  const std::string& scope = k_scope_build);

// What differs between a recorded hash and one made now: "hopper.cuh
// changed", "util.h added", "compile options changed"; empty when equal.
[[nodiscard]] std::vector<std::string> source_differences(const source_hash& recorded, const source_hash& now);

}  // namespace kopt
