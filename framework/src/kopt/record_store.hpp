// The records of one kernel, indexed by the manifest's declaration order,
// and the loop's questions about them: the best so far, the newest record,
// the next variant to record.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kopt/manifest.hpp"
#include "kopt/record.hpp"

namespace kopt {

class record_set {
 public:
  record_set() = default;
  explicit record_set(std::vector<std::optional<record>> by_variant) : m_records(std::move(by_variant)) {}

  // nullptr when the variant has no record (or is not declared).
  [[nodiscard]] const record* get(const manifest& m, const std::string& variant) const;
  [[nodiscard]] const record* at(std::size_t index) const;
  [[nodiscard]] std::size_t size() const { return m_records.size(); }

  // The best so far before declaration index `before`: the last record, in
  // declaration order, that was accepted and is not masked. Every accepted
  // record beat the best before it, so the last one is the fastest.
  [[nodiscard]] const record* best_before(std::size_t before) const;
  [[nodiscard]] const record* best() const { return best_before(m_records.size()); }
  // The last variant in declaration order that has a record.
  [[nodiscard]] const record* newest() const;
  // The first variant in declaration order without a record, or -1.
  [[nodiscard]] int first_unrecorded() const;

 private:
  std::vector<std::optional<record>> m_records;
};

// Reads <records_dir>/<kernel>/<variant>.json for every declared variant
// that has one. Throws format_error for a malformed record, and when a
// record names another kernel or variant than its file name says.
[[nodiscard]] record_set load_records(const manifest& m);

}  // namespace kopt
