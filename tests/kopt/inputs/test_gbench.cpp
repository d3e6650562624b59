// Plain Google Benchmark JSON for kopt compare (kopt/inputs/gbench.hpp):
// benchmark names split into impl and shape.
#include <gtest/gtest.h>

#include <string>

#include "kopt/inputs/gbench.hpp"

namespace kopt::test {
namespace {

TEST(compare_inputs, google_benchmark_names) {
  auto split = [](const std::string& name) {
    const gbench_name n = split_gbench_name(name);
    return n.m_impl + "|" + n.m_shape;
  };
  EXPECT_EQ(split("BM_memcpy/65536"), "BM_memcpy|65536");
  EXPECT_EQ(split("BM_memcpy/65536/repeats:9/manual_time"), "BM_memcpy|65536");
  EXPECT_EQ(split("BM_sort/1024/8/iterations:100/real_time"), "BM_sort|1024/8");
  EXPECT_EQ(split("BM_empty"), "BM_empty|");
  EXPECT_EQ(split("BM_threads/8/threads:4"), "BM_threads|8/threads:4");
  EXPECT_EQ(split("softmax/v1/rows=8,cols=8/iterations:1/manual_time"), "v1|rows=8,cols=8");
}

}  // namespace
}  // namespace kopt::test
