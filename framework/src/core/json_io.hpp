// Reading and writing KernelOpt's JSON files: atomic writes, and typed reads
// whose errors name the file and the JSON path of the offending key.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kopt {

using json = nlohmann::ordered_json;

// "records/softmax/v1.json: /shapes/0/timing/median_ns: missing"
class format_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad arguments or a bad request: `kopt` exits 2 with the subcommand's usage
// line.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Limits on outside input (docs/formats.md, "Limits"). Deeper or larger
// input is a format_error naming the file, never a crash: nlohmann's copy,
// compare and dump recurse once per level.
inline constexpr std::size_t k_max_json_depth = 128;                   // nested arrays/objects
inline constexpr std::uintmax_t k_max_input_bytes = 256ull << 20;      // any file kopt reads
inline constexpr std::size_t k_max_quote = 80;                          // quoted text in messages

// `text` itself when at most `max` characters, else its start, "...", and
// the count of characters left out: "1111...(29920 more)".
[[nodiscard]] std::string shorten(const std::string& text, std::size_t max = k_max_quote);

// `text` with every byte that is not part of valid UTF-8 replaced by U+FFFD:
// text from tools (ncu's CSV, cuobjdump) may carry any bytes, and a JSON
// string must be UTF-8 (nlohmann's dump throws otherwise).
[[nodiscard]] std::string valid_utf8(const std::string& text);

// Reads a whole file of at most k_max_input_bytes; throws format_error
// naming the file ("no such file", "cannot read", "larger than ...").
[[nodiscard]] std::string read_text_file(const std::filesystem::path& path);

// Parses `text` read from `source` (a file name for messages). Throws
// format_error "<source>: ..." on syntax errors, numbers beyond double,
// nesting deeper than k_max_json_depth (naming the JSON pointer), and text
// larger than k_max_input_bytes.
[[nodiscard]] json parse_json_text(const std::string& text, const std::string& source);

// Parses `path`; throws format_error naming the file on I/O or syntax errors.
[[nodiscard]] json read_json_file(const std::filesystem::path& path);

// Checks `kind` and `schema_version` (not newer than `max_version`).
void check_kind(const json& doc, const std::filesystem::path& path, const std::string& kind,
                int max_version);
class json_reader;
// The same at `root`, a document read on its own or embedded in another
// (a record's ceilings): errors name the JSON path from the file's top.
// Returns the schema_version.
std::int64_t check_kind(const json_reader& root, const std::string& kind, int max_version);

// Writes `text` to `path` atomically: a temp file beside it, flushed, then
// renamed over `path`. Creates missing parent directories. Throws
// std::runtime_error on failure and leaves no temp file behind.
void write_file_atomic(const std::filesystem::path& path, const std::string& text);
void write_json_atomic(const std::filesystem::path& path, const json& doc);

// create_file_exclusive found the file already there: another writer won.
class file_exists_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Creates `path` with `text` and never replaces a file: a temp file beside
// it, flushed, then link(2)ed to `path`, which fails if `path` exists.
// Readers see the whole file or none. Throws file_exists_error
// "<path>: exists already (another writer created it first); not replaced",
// std::runtime_error on other failures; leaves no temp file behind.
// NOTE: for records, which are written once; write_file_atomic is for files
// meant to be replaced (reports, env.json).
void create_file_exclusive(const std::filesystem::path& path, const std::string& text);
void write_json_new(const std::filesystem::path& path, const json& doc);

// The temp file name write_file_atomic and create_file_exclusive use for
// `path`: "<path>.tmp.<pid>", the writer's pid, so that a writer killed
// mid-write can be told from a live one.
[[nodiscard]] std::filesystem::path temp_path_for(const std::filesystem::path& path);

// Removes, under `dir` (recursively), temp files "<name>.tmp.<pid>" left by
// writers that were killed: those whose pid is not running, or that are
// older than `max_age`. Returns what it removed.
// REQUIRES: no writer that could still finish writes there (hold the lock).
std::vector<std::filesystem::path> remove_stale_temp_files(const std::filesystem::path& dir,
                                                           std::chrono::seconds max_age);

// Typed access with path-naming errors. `where` is the file for messages.
class json_reader {
 public:
  json_reader(const json& node, std::string file, std::string pointer = "")
      : m_node(node), m_file(std::move(file)), m_pointer(std::move(pointer)) {}

  [[nodiscard]] json_reader at(const std::string& key) const;   // object member, required
  [[nodiscard]] json_reader at(std::size_t index) const;        // array element, required
  [[nodiscard]] bool has(const std::string& key) const;         // present and not null
  [[nodiscard]] std::size_t size() const;                       // array size (must be array)

  [[nodiscard]] std::string as_string() const;
  [[nodiscard]] double as_number() const;         // finite
  [[nodiscard]] std::int64_t as_integer() const;  // exactly representable in int64
  // Range-checked values: an out-of-range value is a format_error naming
  // file and field, never silently taken.
  [[nodiscard]] double as_positive() const;       // finite and > 0 (times, ceilings)
  [[nodiscard]] double as_non_negative() const;   // finite and >= 0 (noise, tolerances)
  [[nodiscard]] std::int64_t as_count() const;    // integer >= 1 (sample counts)
  [[nodiscard]] std::int64_t as_non_negative_integer() const;  // integer >= 0 (seeds, tallies)
  [[nodiscard]] bool as_bool() const;
  [[nodiscard]] bool is_null() const { return m_node.is_null(); }
  [[nodiscard]] const json& raw() const { return m_node; }
  [[nodiscard]] const std::string& pointer() const { return m_pointer; }

  // Throws format_error "<file>: <pointer>: <what>".
  [[noreturn]] void fail(const std::string& what) const;

 private:
  const json& m_node;
  std::string m_file;
  std::string m_pointer;
};

// Whether two documents hold the same value. json keeps the members of an
// object in insertion order and its == compares that order too; two
// writers of one object (the manifest, a record written before the
// manifest's key order changed) agree on content, not on order.
[[nodiscard]] bool same_json_value(const json& a, const json& b);

// The value, or null when there is none.
inline json number_or_null(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }
inline json string_or_null(const std::optional<std::string>& value) { return value ? json(*value) : json(nullptr); }

}  // namespace kopt
