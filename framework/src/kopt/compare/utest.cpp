#include "kopt/compare/utest.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace kopt {

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  const double n = n1 + n2;
  std::vector<std::pair<double, int>> all;
  for (const double x : a) all.emplace_back(x, 0);
  for (const double x : b) all.emplace_back(x, 1);
  std::sort(all.begin(), all.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
  // Average ranks over ties; tie_term = sum(t^3 - t) over tie groups.
  double rank_sum_a = 0;
  double tie_term = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double rank = static_cast<double>(i + j + 1) / 2.0;  // ranks i+1 .. j, averaged
    for (std::size_t k = i; k < j; ++k) {
      if (all[k].second == 0) rank_sum_a += rank;
    }
    tie_term += t * t * t - t;
    i = j;
  }
  const double u1 = rank_sum_a - n1 * (n1 + 1) / 2;
  const double u = std::max(u1, n1 * n2 - u1);
  const double mu = n1 * n2 / 2;
  const double s = std::sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))));
  if (!(s > 0)) return 1.0;  // every value equal: no evidence of a difference
  const double z = (u - mu - 0.5) / s;
  const double p = std::erfc(z / std::sqrt(2.0));  // 2 * the normal survival function
  return std::clamp(p, 0.0, 1.0);
}

}  // namespace kopt
