// What `kopt merge` makes of one device model's merged results when it is
// given the suite's manifests: what a single host's run of the same work
// leaves in its RECORDS (docs/scale-out.md, "Merge"), made by the code the
// single-host commands use, into <group>/records/<kernel>/:
//   <variant>.json            the record of each variant whose correctness
//                             ran (build_gated_record, as `kopt record` /
//                             `optimize`), in declaration order, gated
//                             against the records merged before it
//   <family>.selection.json   each family's selection from its points'
//                             results (select_family, as `kopt select`)
//   report/                   the sweep report of each family and the
//                             kernel's report (write_report, as `kopt report`)
// Nothing of another device model is read: each group's records, selections
// and gate decisions are its own.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kopt/scale/merge/merge_plan.hpp"
#include "kopt/scale/shard/suite.hpp"

namespace kopt::scale {

struct group_records {
  std::vector<std::string> m_records;     // "<kernel>/<variant>: ACCEPT" | "...: REJECT"
  std::vector<std::string> m_selections;  // "<kernel>/<family>: <shape> -> <point>, ..."
  std::vector<std::string> m_not_made;    // "<kernel>/<name>: why"
  // "<kernel>/<family>" of each family whose selection could not be made
  // (a point without a result, no usable point on a shape): `kopt merge`
  // exits 4 for them.
  std::vector<std::string> m_unselected;
};

// Throws std::runtime_error when the suite is not the one the shards ran
// (its hash differs from the plan's).
void check_same_suite(const suite& s, const merge_plan& plan);

// REQUIRES: `group_dir` holds the group's merged results (write_merge's layout).
[[nodiscard]] group_records write_group_records(const suite& s, const merge_plan& plan, const merge_group& group,
                                                const std::filesystem::path& group_dir, double margin);

}  // namespace kopt::scale
