// The source hash of a variant: what the gate checks so that a record can
// never describe code other than the code in the tree.
//
// sha256 over, for each file in the manifest's `sources` order: the file's
// base name, a NUL byte, its size in bytes as decimal digits, a NUL byte,
// its bytes. Base names rather than paths so that a checkout elsewhere
// hashes the same; sizes so that file boundaries cannot shift unnoticed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt {

struct source_file {
  std::string m_name;    // base name
  std::string m_sha256;  // of the file's bytes alone
};

struct source_hash {
  std::string m_sha256;
  std::vector<source_file> m_files;
};

// Throws std::runtime_error naming the file when one cannot be read.
[[nodiscard]] source_hash hash_sources(const std::vector<std::string>& paths);

[[nodiscard]] json to_json(const source_hash& hash);
[[nodiscard]] source_hash source_hash_from_json(const json_reader& node);

// The current source hash of the candidate, or why it could not be computed.
struct current_source {
  std::optional<source_hash> m_hash;
  std::string m_error;
};
[[nodiscard]] current_source hash_current_sources(const manifest& m, const std::string& variant);

}  // namespace kopt
