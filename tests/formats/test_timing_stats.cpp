// The timing statistics row: one definition for the bench row, the record
// and compare, written and read back, checked where read.
#include <gtest/gtest.h>

#include <functional>

#include "formats/timing_stats.hpp"

namespace kopt {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const format_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(timing_stats, written_flat_in_order_and_read_back) {
  timing_stats s;
  s.m_median_ns = 41200.0;
  s.m_p10_ns = 41000.0;
  s.m_p90_ns = 41800.0;
  s.m_cv = 0.011;
  s.m_samples = 412;  // noise unknown: one estimate short
  json row = {{"shape", "n=1"}};
  add_to_json(s, row);
  EXPECT_EQ(row.dump(), R"({"shape":"n=1","median_ns":41200.0,"p10_ns":41000.0,"p90_ns":41800.0,"cv":0.011,)"
                        R"("noise":null,"samples":412})");
  const timing_stats back = timing_stats_from_json(json_reader(row, "r.json", "/shapes/0"));
  EXPECT_EQ(back.m_median_ns, s.m_median_ns);
  EXPECT_EQ(back.m_p90_ns, s.m_p90_ns);
  EXPECT_FALSE(back.m_noise);
  EXPECT_EQ(back.m_samples, 412);
}

TEST(timing_stats, values_are_checked_where_read) {
  json row = {{"median_ns", -5}, {"samples", 3}};
  EXPECT_EQ(message_of([&] { (void)timing_stats_from_json(json_reader(row, "b.json", "/benchmarks/0/kopt")); }),
            "b.json: /benchmarks/0/kopt/median_ns: must be > 0, got -5");
  row = {{"median_ns", 5.0}, {"samples", 0}};
  EXPECT_NE(message_of([&] { (void)timing_stats_from_json(json_reader(row, "b.json")); }).find("b.json: /samples:"),
            std::string::npos);
  row = {{"median_ns", 5.0}, {"samples", 2}, {"noise", -0.1}};
  EXPECT_NE(message_of([&] { (void)timing_stats_from_json(json_reader(row, "b.json")); }).find("b.json: /noise:"),
            std::string::npos);
}

}  // namespace
}  // namespace kopt
