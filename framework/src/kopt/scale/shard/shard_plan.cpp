#include "kopt/scale/shard/shard_plan.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "kopt/records/sha256.hpp"

namespace kopt::scale {
namespace {

int parse_int(const std::string& text, const std::string& what) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument(what + " '" + text + "' is not a non-negative integer");
  }
  return std::atoi(text.c_str());
}

}  // namespace

const std::vector<std::string>& shard_index_variables() {
  static const std::vector<std::string> names = {"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"};
  return names;
}

shard_spec parse_shard_spec(const std::string& text, const env_lookup& getenv) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) {
    throw std::invalid_argument("--shard '" + text + "': expected I/N (e.g. 3/16) or auto/N");
  }
  shard_spec spec;
  spec.m_count = parse_int(text.substr(slash + 1), "--shard '" + text + "': the shard count");
  if (spec.m_count < 1 || spec.m_count > k_max_shards) {
    throw std::invalid_argument("--shard '" + text + "': the shard count must be from 1 to " +
                                std::to_string(k_max_shards));
  }
  const std::string index = text.substr(0, slash);
  if (index == "auto") {
    for (const std::string& name : shard_index_variables()) {
      const char* value = getenv(name.c_str());
      if (value == nullptr || *value == '\0') continue;
      spec.m_index = parse_int(value, "--shard auto: " + name);
      spec.m_index_source = name;
      break;
    }
    if (spec.m_index_source.empty()) {
      throw std::invalid_argument("--shard '" + text +
                                  "': no shard index in the environment (SLURM_ARRAY_TASK_ID, "
                                  "JOB_COMPLETION_INDEX); give it as I/N");
    }
  } else {
    spec.m_index = parse_int(index, "--shard '" + text + "': the shard index");
    spec.m_index_source = "--shard";
  }
  if (spec.m_index >= spec.m_count) {
    throw std::invalid_argument("--shard '" + text + "': shard index " + std::to_string(spec.m_index) + " (from " +
                                spec.m_index_source + ") is not below the count " + std::to_string(spec.m_count));
  }
  return spec;
}

std::uint64_t shard_weight(const std::string& unit, int index) {
  std::string key = unit;
  key.push_back('\0');
  key += std::to_string(index);
  const std::string hex = sha256_hex(key);
  return std::strtoull(hex.substr(0, 16).c_str(), nullptr, 16);
}

int shard_of(const std::string& unit, int count) {
  int best = 0;
  std::uint64_t best_weight = shard_weight(unit, 0);
  for (int i = 1; i < count; ++i) {
    const std::uint64_t weight = shard_weight(unit, i);
    if (weight > best_weight) {
      best = i;
      best_weight = weight;
    }
  }
  return best;
}

std::vector<std::string> units_of_shard(const std::vector<std::string>& units, int index, int count) {
  std::vector<std::string> mine;
  for (const std::string& unit : units) {
    if (shard_of(unit, count) == index) mine.push_back(unit);
  }
  return mine;
}

std::string shard_stem(int index, int count) {
  char text[64];
  std::snprintf(text, sizeof text, "shard-%04d-of-%04d", index, count);
  return text;
}

}  // namespace kopt::scale
