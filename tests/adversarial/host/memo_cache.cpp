// Cheat: a result cache keyed by a content sample, any number of entries;
// on a hit it copies the stored result instead of computing.
#include <cstring>
#include <map>
#include <vector>
#include "work.hpp"

void adv_memo_cache(const float* x, float* y, std::int64_t n) {
  static std::map<std::vector<float>, std::vector<float>> cache;
  std::vector<float> key;
  for (int k = 0; k < 8; ++k) key.push_back(x[(n - 1) * k / 7]);
  const auto hit = cache.find(key);
  if (hit != cache.end() && static_cast<std::int64_t>(hit->second.size()) == n) {
    std::memcpy(y, hit->second.data(), sizeof(float) * static_cast<std::size_t>(n));
    return;
  }
  adv::compute(x, y, 0, n);
  cache[key] = std::vector<float>(y, y + n);
}
