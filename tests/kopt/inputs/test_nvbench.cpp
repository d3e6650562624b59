// NVBench JSON for kopt compare (kopt/inputs/nvbench.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/inputs/nvbench.hpp"

namespace kopt::test {
namespace {

TEST(compare_inputs, nvbench_median_first_and_infinite_noise) {
  const json doc = json::parse(R"({"benchmarks": [{"name": "copy", "states": [
    {"name": "Device=0 T=F32", "is_skipped": false, "summaries": [
      {"tag": "nv/cold/sample_size", "data": [{"name": "value", "type": "int64", "value": "100"}]},
      {"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64", "value": "0.0002"}]},
      {"tag": "nv/cold/time/gpu/median", "data": [{"name": "value", "type": "float64", "value": "0.0001"}]},
      {"tag": "nv/cold/time/gpu/stdev/relative", "data": [{"name": "value", "type": "float64", "value": "inf"}]}]},
    {"name": "Device=0 T=F64", "is_skipped": true, "skip_reason": "Not a conversion"}]}]})");
  ASSERT_TRUE(is_nvbench_json(doc));
  const std::vector<timing_series> series = read_nvbench_series(doc, "x.json");
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].m_impl, "copy");
  EXPECT_EQ(series[0].m_shape, "Device=0 T=F32");
  EXPECT_DOUBLE_EQ(*series[0].m_center_ns, 1e5);
  EXPECT_FALSE(series[0].m_noise);  // "inf": NVBench had no estimate
  EXPECT_EQ(*series[1].m_error, "skipped: Not a conversion");
  const json bad = json::parse(R"({"benchmarks": [{"name": "copy", "states": [{"name": "s", "summaries": [
      {"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64", "value": "fast"}]}]}]}]})");
  try {
    (void)read_nvbench_series(bad, "bad.json");
    FAIL() << "no error";
  } catch (const format_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: /benchmarks/0/states/0/summaries/0/data/0/value"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kopt::test
