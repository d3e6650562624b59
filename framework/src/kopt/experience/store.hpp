// The experience store: a folder with one `<id>.json` per entry. One file
// per entry, named by a content hash, so that two repositories' stores merge
// in git without a conflict and `add` / `merge` never duplicate an entry.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kopt/experience/entry.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt {

// Where the store is, in this order: `explicit_dir` (--store), the
// environment variable KOPT_EXPERIENCE_DIR, `<records_dir>/experience` of
// the manifest. nullopt when none applies.
[[nodiscard]] std::optional<std::filesystem::path> experience_dir(const std::optional<std::string>& explicit_dir,
                                                                 const manifest* m);

// Every entry of the store, oldest first (date, then id); an absent folder
// is an empty store. Throws format_error for a malformed entry, and when a
// file's name is not its entry's id.
[[nodiscard]] std::vector<experience_entry> read_experience(const std::filesystem::path& dir);

// Writes `<dir>/<id>.json` unless an entry with that id is there: true when
// it was added. Atomic (temp file, then a link that never replaces a file).
bool add_experience(const std::filesystem::path& dir, const experience_entry& e);

}  // namespace kopt
