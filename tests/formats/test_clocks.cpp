// The clock objects of a timed row (formats/clocks.hpp) through their one
// type: each form the engines write (host, CUPTI unavailable, CUPTI
// measured; NVML known and unknown) reads back unchanged, and a value of
// the wrong type is an input error naming the file and the JSON pointer.
#include <gtest/gtest.h>

#include <functional>

#include "formats/clocks.hpp"

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

json round_trip(const second_clock& c) {
  const json doc = to_json(c);
  return to_json(second_clock_from_json(json_reader(doc, "bench.json", "/benchmarks/0/kopt/second_clock")));
}

TEST(clocks, every_second_clock_form_reads_back_unchanged) {
  const second_clock host = second_clock::unavailable("", "host backend");
  EXPECT_EQ(to_json(host).dump(), R"({"available":false,"reason":"host backend"})");
  EXPECT_EQ(round_trip(host), to_json(host));
  const second_clock off = second_clock::unavailable("cupti", "disabled by --kopt_no_cupti");
  EXPECT_EQ(to_json(off).dump(),
            R"({"source":"cupti","available":false,"reason":"disabled by --kopt_no_cupti","median_ns":null,)"
            R"("agreement":"unavailable","difference":null,"kernels":[]})");
  EXPECT_EQ(round_trip(off), to_json(off));
  second_clock measured;
  measured.m_source = "cupti";
  measured.m_available = true;
  measured.m_median_ns = 188719.5;
  measured.m_agreement = "ok";
  measured.m_difference = -0.012;
  measured.m_bound = 0.02;
  measured.m_samples = 16;
  measured.m_noise = 0.0013;
  clock_kernel k;
  k.m_name = "softmax_kernel";
  k.m_grid = {8192, 1, 1};
  k.m_block = {256, 1, 1};
  k.m_registers = 32;
  k.m_static_smem = 1024;
  k.m_stream = 13;
  k.m_median_ns = 188719.5;
  k.m_launches_per_sample = 1;
  measured.m_kernels = {k};
  EXPECT_EQ(round_trip(measured), to_json(measured));
  EXPECT_EQ(to_json(measured)["kernels"][0]["grid"], json::array({8192, 1, 1}));
}

TEST(clocks, nvml_window_reads_back_with_unknowns) {
  clock_window known{1680, 1980, 1980, true, {"sw_power_cap"}, 8, std::nullopt};
  clock_window unknown;
  unknown.m_reason = "no NVML reading";
  for (const clock_window& w : {known, unknown}) {
    const json doc = to_json(w);
    EXPECT_EQ(to_json(clock_window_from_json(json_reader(doc, "bench.json", "/clock"))), doc);
  }
  EXPECT_EQ(to_json(unknown)["sm_mhz_min"], "unknown");
  EXPECT_EQ(to_json(unknown)["throttled"], "unknown");
}

TEST(clocks, wrong_types_name_file_and_pointer) {
  json doc = to_json(second_clock::unavailable("cupti", "x"));
  doc["agreement"] = "maybe";
  EXPECT_EQ(message_of([&] { (void)second_clock_from_json(json_reader(doc, "b.json", "/k/second_clock")); }),
            "b.json: /k/second_clock/agreement: expected \"ok\", \"disagree\" or \"unavailable\", got \"maybe\"");
  doc = to_json(second_clock::unavailable("cupti", "x"));
  doc["kernels"] = json::array({{{"name", "k"}, {"grid", {1, 1}}}});
  EXPECT_EQ(message_of([&] { (void)second_clock_from_json(json_reader(doc, "b.json", "/k/second_clock")); }),
            "b.json: /k/second_clock/kernels/0/grid: expected [x, y, z]");
  json window = to_json(clock_window{});
  window["sm_mhz_min"] = "fast";
  EXPECT_EQ(message_of([&] { (void)clock_window_from_json(json_reader(window, "b.json", "/k/clock")); }),
            "b.json: /k/clock/sm_mhz_min: expected an integer or \"unknown\"");
}

}  // namespace
}  // namespace kopt
