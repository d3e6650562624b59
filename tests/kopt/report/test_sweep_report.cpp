// The sweep report: every point a row, every shape a column, one champion
// marked per shape, the champion map, the frontier, failed points and the
// sections another analysis adds (the ablation hook), in both formats.
#include <gtest/gtest.h>

#include "kopt/report/sweep_report.hpp"

namespace kopt {
namespace {

point_result timed(const std::string& point, double t64, double t128) {
  point_result r;
  r.m_point = point;
  r.m_params = {"B=" + point};
  r.m_build.m_status = "ok";
  r.m_correctness.m_status = "pass";
  r.m_bench.m_status = "ok";
  r.m_times = {{"M=64", t64, 0.01}, {"M=128", t128, 0.01}};
  return r;
}

sweep_report example() {
  sweep_report r;
  point_result broken;
  broken.m_point = "v1_p2";
  broken.m_build = {"failed", "static assertion <failed>", 1};
  r.m_results = {timed("v1_p0", 1000, 9000), timed("v1_p1", 1010, 8000), broken};
  selection& s = r.m_selection;
  s.m_kernel = "mm";
  s.m_variant = "v1";
  s.m_points = {"v1_p0", "v1_p1", "v1_p2"};
  s.m_shapes = {{"M=64", "v1_p0", 1000, {{"v1_p0", 1000, 1}, {"v1_p1", 1010, 1.01}}},
                {"M=128", "v1_p1", 8000, {{"v1_p1", 8000, 1}}}};
  s.m_failed = {{"v1_p2", "build failed: static assertion <failed>"}};
  r.m_extra = {{"Ablation", "| method | effect |\n", "<table id=\"ablation\"></table>"}};
  return r;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(sweep_report, markdown_marks_one_champion_per_shape) {
  const std::string md = render_sweep_markdown(example());
  EXPECT_NE(md.find("| v1_p0 | B=v1_p0 | **1 us** ★ | 9 us (1.125x) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| v1_p1 | B=v1_p1 | 1.01 us (1.010x) | **8 us** ★ |"), std::string::npos) << md;
  EXPECT_NE(md.find("| v1_p2 |  | build failed | build failed |"), std::string::npos) << md;
  EXPECT_EQ(count(md, "★ |"), 2);
  EXPECT_NE(md.find("| M=128 | v1_p1 | 8 us |"), std::string::npos) << md;
  EXPECT_NE(md.find("| M=64 | v1_p0 1.000x, v1_p1 1.010x |"), std::string::npos) << md;
  EXPECT_NE(md.find("- v1_p2: build failed"), std::string::npos) << md;
  EXPECT_NE(md.find("## Ablation\n\n| method | effect |"), std::string::npos) << md;
}

TEST(sweep_report, html_escapes_and_keeps_the_extra_sections) {
  const std::string html = render_sweep_html(example());
  EXPECT_EQ(count(html, "class=\"champion\""), 2);
  EXPECT_NE(html.find("static assertion &lt;failed&gt;"), std::string::npos);
  EXPECT_EQ(html.find("static assertion <failed>"), std::string::npos);
  EXPECT_NE(html.find("<table id=\"ablation\"></table>"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

}  // namespace
}  // namespace kopt
