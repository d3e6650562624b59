// Cheat (a second audit): a result cache keyed by the whole input, so every
// checked launch gets correct values, that recomputes on every 5th hit: 20 %
// slow calls put p90 at the honest time, which widened the fresh-content
// bound, while the speedup is taken from medians (accepted at 31x before).
// Now timed as on new inputs (flag timed_on_fresh_inputs): no faster than v0.
#include <cstring>
#include <map>
#include <vector>
#include "work.hpp"

void adv_cache_tail(const float* x, float* y, std::int64_t n) {
  static std::map<std::vector<float>, std::vector<float>> cache;
  static long hits = 0;
  std::vector<float> key(x, x + n);
  const auto hit = cache.find(key);
  if (hit != cache.end() && ++hits % 5 != 0) {
    std::memcpy(y, hit->second.data(), sizeof(float) * static_cast<std::size_t>(n));
    return;
  }
  adv::compute(x, y, 0, n);
  if (cache.size() < 64) cache[std::move(key)] = std::vector<float>(y, y + n);
}
