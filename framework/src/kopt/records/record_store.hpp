// The records of one kernel, indexed by the manifest's declaration order,
// and the loop's questions about them: the best so far, the newest record,
// the next variant to record.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kopt/inputs/manifest.hpp"
#include "kopt/records/measured_inputs.hpp"
#include "kopt/records/record.hpp"

namespace kopt {

// What a reader may take a record for (DESIGN, "Evidence rules"): records
// are re-checked wherever they are used.
enum class record_state {
  current,       // sources and settings as now, decision follows from its evidence
  masked,        // kopt mask: kept, never counts
  stale,         // sources, settings or inputs changed since it was made
  inconsistent,  // its stored decision does not follow from its evidence
};

struct record_status {
  record_state m_state = record_state::current;
  std::vector<std::string> m_problems;  // why stale or inconsistent

  // Whether the record may serve as the best so far: current and accepted
  // (record::counts_as_accepted, and not stale or inconsistent).
  [[nodiscard]] bool current() const { return m_state == record_state::current; }
  [[nodiscard]] bool counts() const { return m_counts; }
  // "rejected", "masked (reason)", "stale (sources changed ...)", ...
  [[nodiscard]] std::string describe(const record& r) const;
  // "ACCEPT", "REJECT", "ACCEPT (stale)", "ACCEPT (inconsistent)", "masked"
  [[nodiscard]] std::string label(const record& r) const;

  bool m_counts = false;
};

// Why `r` is stale against the manifest now (its sources hash, shapes,
// seeds, tolerance, timing settings), empty when it is not. `source_now` is
// the current hash of the variant's sources, or nullopt when they cannot be
// read (then that is the problem).
// How many of the declared SHAPES the record's timing covers (a --quick run
// times the QUICK_SHAPES).
[[nodiscard]] std::size_t declared_shapes_timed(const manifest& m, const record& r);

// Why the record no longer describes the declaration: `now` is its source
// hash made now in the record's scope (source_hash.hpp).
[[nodiscard]] std::vector<std::string> staleness(const manifest& m, const record& r, const current_source& now);
// Why `r` is stale against the inputs and reference declared now (ARGS,
// INIT, DIMS, the reference's entry, backend, precision and sources:
// measured_inputs.hpp), empty when it is not, or when the record keeps none
// (made before kopt kept them). `now` is inputs_now(m).
[[nodiscard]] std::vector<std::string> input_staleness(const record& r, const current_inputs& now);

// Where the record's stored decision does not follow from its evidence
// (gate.hpp evidence_checks, in the record's schema version); empty when it
// does.
[[nodiscard]] std::vector<std::string> inconsistencies(const manifest& m, const record& r);

// The status of one record against the manifest now.
[[nodiscard]] record_status check_record(const manifest& m, const record& r);

class record_set {
 public:
  record_set() = default;
  explicit record_set(std::vector<std::optional<record>> by_variant);
  record_set(std::vector<std::optional<record>> by_variant, std::vector<record_status> statuses)
      : m_records(std::move(by_variant)), m_statuses(std::move(statuses)) {}

  // REQUIRES: index < size(). A missing record's status is current.
  [[nodiscard]] const record_status& status_at(std::size_t index) const { return m_statuses.at(index); }
  [[nodiscard]] const record_status* status(const manifest& m, const std::string& variant) const;

  // nullptr when the variant has no record (or is not declared).
  [[nodiscard]] const record* get(const manifest& m, const std::string& variant) const;
  [[nodiscard]] const record* at(std::size_t index) const;
  [[nodiscard]] std::size_t size() const { return m_records.size(); }

  // The best so far before declaration index `before`: the last record, in
  // declaration order, that was accepted, is not masked, not stale and not
  // inconsistent. Every accepted record beat the best before it, so the
  // last one is the fastest.
  [[nodiscard]] const record* best_before(std::size_t before) const;
  [[nodiscard]] const record* best() const { return best_before(m_records.size()); }
  // The last variant in declaration order that has a record.
  [[nodiscard]] const record* newest() const;
  // The first variant in declaration order without a record, or -1.
  [[nodiscard]] int first_unrecorded() const;

 private:
  std::vector<std::optional<record>> m_records;
  std::vector<record_status> m_statuses;
};

// One line per record that was accepted but does not count now (stale or
// inconsistent), and per inconsistent record: for the console of every
// command that relies on records.
[[nodiscard]] std::vector<std::string> uncounted_notes(const manifest& m, const record_set& records);

// The records before declaration index `before`, newer than the best so
// far, that were accepted and are stale now (a quick ACCEPT that never
// counted aside), oldest first. Each would be the bar had it stayed
// current: a decision against the older best would let a no-op edit (or a
// changed setting) lower the bar unnoticed, so the gate refuses to decide
// until they are current again or masked (an explicit, recorded act).
[[nodiscard]] std::vector<const record*> stale_above_best(const manifest& m, const record_set& records,
                                                          std::size_t before);
// "v1 (sources changed ...); v3 (...)": for the messages that refuse.
[[nodiscard]] std::string describe_stale_bar(const manifest& m, const record_set& records,
                                             const std::vector<const record*>& stale);

// Reads <records_dir>/<kernel>/<variant>.json for every declared variant
// that has one, and re-checks each (staleness, inconsistencies). Throws
// format_error for a malformed record, and when a record names another
// kernel or variant than its file name says.
[[nodiscard]] record_set load_records(const manifest& m);

// Refuses (std::runtime_error) when the record of `variant` exists:
// records are never rewritten.
void require_no_record(const manifest& m, const std::string& variant);

}  // namespace kopt
