// `kopt merge`'s files (docs/scale-out.md, "Merge"): into <out>,
//   merge.json   kernelopt.merge: the inputs, per device model the unit
//                chosen for each name and where from, duplicates,
//                conflicts, missing units and shards
//   merge.md     the same for people
//   <model>/<kernel>/correct.<impl>.json, bench.<impl>.json, logs/
//                the chosen results, byte for byte as the shard wrote them
//                (the layout of one host's results folder)
//   <model>/champions.json  kernelopt.champions of that model's units
//   <model>/<kernel>/sweep/<family>/<point>.*  a family point's files, in
//                the layout of the family's sweep folder
//   <model>/records/  with the suite's manifests: records, selections and
//                reports, as a single host makes them (merge_records.hpp)
// Written into <out>.partial and renamed, so that <out> is whole or absent.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/scale/merge/champions.hpp"
#include "kopt/scale/merge/merge_plan.hpp"
#include "kopt/scale/merge/merge_records.hpp"
#include "kopt/scale/shard/suite.hpp"

namespace kopt::scale {

inline constexpr int k_merge_schema_version = 1;
inline constexpr const char* k_merge_kind = "kernelopt.merge";

// `records`: per group (plan order) what write_group_records made; empty
// when the merge was given no manifests.
[[nodiscard]] json to_json(const merge_plan& plan, const std::vector<std::filesystem::path>& partial,
                           const std::vector<group_records>& records = {});
// The device-model folders an earlier merge's merge.json lists (groups[].folder,
// in its order): what `kopt merge --compare` reads of another merge. Checks
// kind and schema_version; throws format_error naming the file and field.
[[nodiscard]] std::vector<std::string> read_merge_folders(const std::filesystem::path& merge_json);
[[nodiscard]] std::string render_merge_markdown(const merge_plan& plan,
                                                const std::vector<std::filesystem::path>& partial,
                                                const std::vector<group_records>& records = {});
[[nodiscard]] champion_map champions_of(const merge_plan& plan, const merge_group& group);

// Writes the folder; with `s` (the suite's manifests, check_same_suite
// first) also each group's records. An existing <out> is replaced only when
// it holds a merge.json (an earlier merge); otherwise std::runtime_error.
std::vector<group_records> write_merge(const merge_plan& plan, const std::vector<std::filesystem::path>& partial,
                                       const std::filesystem::path& out, const suite* s = nullptr,
                                       double margin = 0.03);

}  // namespace kopt::scale
