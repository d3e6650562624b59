// `kopt merge --into-records` (docs/scale-out.md, "Merge"): one device
// model's merged records and selections installed into the kernels'
// RECORDS, written as `kopt record` and `kopt select` write them, so that
// the next build generates the dispatch as after `kopt select`:
//   <variant>.json           created once (write_json_new); an existing
//                            record equal to the merged one is left as it
//                            is, one that differs refuses the whole install
//                            (records are never rewritten, as kopt record)
//   <family>.selection.json  replaced atomically (as kopt select), its
//                            sweep report rewritten, and the kernel's
//                            selection.stamp touched: the next build
//                            configures again and builds the dispatch
//   report/report.md, .html  the kernel's report (as kopt report)
// Every check is made before anything is written.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kopt/scale/merge/merge_plan.hpp"
#include "kopt/scale/shard/suite.hpp"

namespace kopt::scale {

struct installed_records {
  std::vector<std::string> m_written;    // files written
  std::vector<std::string> m_unchanged;  // records already there, equal to the merged ones
  // (kernel, variant) of each record written: `kopt record` adds each to
  // the experience store, and so does `kopt merge --into-records`.
  std::vector<std::pair<std::string, std::string>> m_new_records;
};

// The group --model names (its device model or its folder), or the only
// one when `model` is empty. Throws std::invalid_argument naming the
// models when the name matches none, or when several are there and none is
// named.
[[nodiscard]] const merge_group& group_to_install(const merge_plan& plan, const std::string& model);

// REQUIRES: `group_dir` holds what write_merge (with `s`) wrote for `group`.
// `records_dir`: instead of each manifest's RECORDS. Takes each kernel's
// lock (kopt/records/kernel_lock.hpp) for `lock_wait_s`. Throws
// std::runtime_error, writing nothing, when a record exists and differs.
installed_records install_group_records(const suite& s, const merge_group& group,
                                        const std::filesystem::path& group_dir,
                                        const std::optional<std::filesystem::path>& records_dir,
                                        double lock_wait_s, std::ostream& err);

}  // namespace kopt::scale
