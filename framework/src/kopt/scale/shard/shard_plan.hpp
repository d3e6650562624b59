// Which shard runs which unit (docs/scale-out.md, "Shards"): rendezvous
// (highest-random-weight) hashing of the unit's name. Unit u goes to the
// shard i in [0, n) with the largest weight sha256("<u>\0<i>"), so
//   - the assignment depends on the name and n only, never on the order or
//     the number of other units: adding a kernel moves none of the others;
//   - going from n to n+1 shards moves only the units the new shard wins
//     (about 1/(n+1) of them).
// The balance is statistical: with few units per shard, shards differ in
// size, and one may be empty.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kopt::scale {

inline constexpr const char* k_assignment = "hrw-sha256";
inline constexpr int k_max_shards = 100000;

struct shard_spec {
  int m_index = 0;
  int m_count = 1;
  std::string m_index_source;  // "--shard", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"
};

// The environment variables an index may come from, in the order tried.
[[nodiscard]] const std::vector<std::string>& shard_index_variables();

using env_lookup = std::function<const char*(const char*)>;

// "I/N" (0 <= I < N), or "auto/N": I from SLURM_ARRAY_TASK_ID (a Slurm job
// array), else JOB_COMPLETION_INDEX (a Kubernetes indexed Job). Throws
// std::invalid_argument naming the text and what is wrong.
[[nodiscard]] shard_spec parse_shard_spec(const std::string& text, const env_lookup& getenv);

// The weight of `unit` on shard `index` (the first 8 bytes of the sha256).
[[nodiscard]] std::uint64_t shard_weight(const std::string& unit, int index);
// The shard in [0, count) that runs `unit`. REQUIRES: count >= 1.
[[nodiscard]] int shard_of(const std::string& unit, int count);
// The units of `units` that shard `index` of `count` runs, in the given order.
[[nodiscard]] std::vector<std::string> units_of_shard(const std::vector<std::string>& units, int index, int count);

// "shard-0003-of-0016": the stem of a shard's folders.
[[nodiscard]] std::string shard_stem(int index, int count);

}  // namespace kopt::scale
