#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kopt/scale/shard/shard_plan.hpp"

namespace kopt::scale {
namespace {

env_lookup env_of(const std::map<std::string, std::string>& vars) {
  return [vars](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

std::vector<std::string> many_units(int n) {
  std::vector<std::string> units;
  for (int i = 0; i < n; ++i) units.push_back("k" + std::to_string(i % 7) + "/v" + std::to_string(i));
  return units;
}

TEST(ShardSpec, ExplicitIndex) {
  const shard_spec spec = parse_shard_spec("3/16", env_of({{"SLURM_ARRAY_TASK_ID", "5"}}));
  EXPECT_EQ(spec.m_index, 3);
  EXPECT_EQ(spec.m_count, 16);
  EXPECT_EQ(spec.m_index_source, "--shard");
}

TEST(ShardSpec, IndexFromSlurmThenKubernetes) {
  EXPECT_EQ(parse_shard_spec("auto/4", env_of({{"SLURM_ARRAY_TASK_ID", "2"}, {"JOB_COMPLETION_INDEX", "1"}})).m_index, 2);
  const shard_spec k8s = parse_shard_spec("auto/4", env_of({{"JOB_COMPLETION_INDEX", "1"}}));
  EXPECT_EQ(k8s.m_index, 1);
  EXPECT_EQ(k8s.m_index_source, "JOB_COMPLETION_INDEX");
}

TEST(ShardSpec, BadSpecsAreErrorsNamingTheText) {
  for (const char* text : {"4/4", "3", "x/4", "1/0", "-1/4", "1/x", "auto/4"}) {
    try {
      (void)parse_shard_spec(text, env_of({}));
      ADD_FAILURE() << text << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  }
  // An index from the environment that is out of range names where it came from.
  try {
    (void)parse_shard_spec("auto/4", env_of({{"SLURM_ARRAY_TASK_ID", "4"}}));
    ADD_FAILURE() << "index 4 of 4 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("SLURM_ARRAY_TASK_ID"), std::string::npos) << e.what();
  }
}

// The assignment is part of the format: shards written by one kopt are
// merged by another. These values pin it.
TEST(ShardOf, PinnedValues) {
  EXPECT_EQ(shard_of("scale_mm/p5", 4), 1);
  EXPECT_EQ(shard_of("scale_mm/p10", 4), 2);
  EXPECT_EQ(shard_of("anything", 1), 0);
}

TEST(ShardOf, EveryUnitInExactlyOneShard) {
  const std::vector<std::string> units = many_units(200);
  std::multiset<std::string> seen;
  for (int i = 0; i < 6; ++i) {
    for (const std::string& u : units_of_shard(units, i, 6)) seen.insert(u);
  }
  EXPECT_EQ(seen.size(), units.size());
  for (const std::string& u : units) EXPECT_EQ(seen.count(u), 1u) << u;
}

TEST(ShardOf, AddingUnitsMovesNoneAndOneMoreShardMovesFew) {
  const std::vector<std::string> units = many_units(2000);
  std::vector<std::string> fewer(units.begin(), units.begin() + 1000);
  // Each shard of the smaller suite is the larger suite's shard minus the added units.
  for (int i = 0; i < 8; ++i) {
    std::vector<std::string> mine = units_of_shard(units, i, 8);
    mine.erase(std::remove_if(mine.begin(), mine.end(),
                              [&](const std::string& u) { return std::find(fewer.begin(), fewer.end(), u) == fewer.end(); }),
               mine.end());
    EXPECT_EQ(units_of_shard(fewer, i, 8), mine) << "shard " << i;
  }
  // n -> n+1: a unit moves only to the new shard, about 1/(n+1) of them.
  int moved = 0;
  for (const std::string& u : units) {
    const int before = shard_of(u, 9), after = shard_of(u, 10);
    if (before != after) {
      ++moved;
      EXPECT_EQ(after, 9) << u << " moved between old shards";
    }
  }
  EXPECT_GT(moved, 2000 / 10 / 2);
  EXPECT_LT(moved, 2000 / 10 * 2);
}

TEST(ShardOf, BalanceIsStatistical) {
  const std::vector<std::string> units = many_units(1600);
  for (int i = 0; i < 8; ++i) {
    const std::size_t n = units_of_shard(units, i, 8).size();
    EXPECT_GT(n, 140u) << "shard " << i;
    EXPECT_LT(n, 260u) << "shard " << i;
  }
}

TEST(ShardStem, SortsByIndex) {
  EXPECT_EQ(shard_stem(3, 16), "shard-0003-of-0016");
}

}  // namespace
}  // namespace kopt::scale
