// The Mann-Whitney U test as Google Benchmark's compare.py runs it
// (tools/gbench/report.py: scipy.stats.mannwhitneyu(a, b,
// alternative="two-sided"), alpha 0.05, "9+ repetitions recommended").
// With more than 8 values on each side scipy uses the normal approximation
// with tie correction and continuity correction; this is that computation,
// and kopt uses the test only from k_utest_min_repetitions (9) per side, so
// its p-values are scipy's (tests/kopt/compare/test_utest.cpp holds scipy's values).
#pragma once

#include <cstddef>
#include <vector>

namespace kopt {

inline constexpr double k_utest_alpha = 0.05;
inline constexpr std::size_t k_utest_min_repetitions = 9;

// Two-sided p-value of H0 "a and b come from one distribution".
// REQUIRES: a and b non-empty.
[[nodiscard]] double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace kopt
