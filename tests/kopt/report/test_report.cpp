// kopt report: the model (computation) and its Markdown / HTML renderings.
#include <gtest/gtest.h>

#include "kopt/inputs/manifest.hpp"
#include "kopt/records/record_store.hpp"
#include "kopt/report/report_model.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

class report_test : public ::testing::Test {
 protected:
  run_result report(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"report", "--manifest", c.manifest(), "--out-dir",
                                     c.path("out").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_kopt(args);
  }
  scratch_case c;
};

TEST_F(report_test, model_of_the_golden_campaign) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const manifest m = read_manifest(c.manifest());
  const report_model r = build_report(m, load_records(m), "");
  EXPECT_EQ(r.m_best, std::optional<std::string>("v4"));
  EXPECT_EQ(r.m_root, std::optional<std::string>("v0"));
  EXPECT_NEAR(*r.m_best_vs_root, std::sqrt((78660.0 / 38000.0) * (310500.0 / 150000.0)), 1e-12);
  EXPECT_NEAR(*r.m_best_vs_reference, std::sqrt((900000.0 / 38000.0) * (3600000.0 / 150000.0)), 1e-12);
  EXPECT_TRUE(r.m_target_met);
  EXPECT_EQ(r.m_stop_reason, "target met (best: v4)");
  ASSERT_EQ(r.m_versions.size(), 6u);
  EXPECT_EQ(r.m_versions[2].m_decision, "REJECT");
  EXPECT_EQ(r.m_versions[5].m_decision, "not recorded");
  EXPECT_TRUE(r.m_versions[4].m_is_best);
  EXPECT_EQ(r.m_versions[4].m_bottleneck, "not profiled");
}

TEST_F(report_test, markdown_is_golden_and_html_is_self_contained) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  write_text(c.path("notes.md"), "Tried <b>vectorized</b> loads in v2; the tail was wrong.\n");
  const run_result r = report({"--notes", c.path("notes.md").string()});
  ASSERT_EQ(r.m_code, 0) << r.m_err;
  expect_golden(read_text(c.path("out/report.md")), "softmax/expected/report.md");
  const std::string html = read_text(c.path("out/report.html"));
  expect_golden(html, "softmax/expected/report.html");
  EXPECT_NE(html.find("<svg id=\"trend-chart\""), std::string::npos);
  EXPECT_NE(html.find("<table id=\"versions\">"), std::string::npos);
  EXPECT_NE(html.find("<div id=\"roofline\">"), std::string::npos);
  EXPECT_NE(html.find("Tried &lt;b&gt;vectorized&lt;/b&gt;"), std::string::npos);  // notes escaped
  for (const char* forbidden : {"<script", "<link", "src=", "href=", "@import", "url("}) {
    EXPECT_EQ(html.find(forbidden), std::string::npos) << forbidden;
  }
}

TEST_F(report_test, masked_versions_and_stagnation) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  ASSERT_EQ(
      run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v4", "--reason", "clock throttled"}).m_code,
      0);
  ASSERT_EQ(report().m_code, 0);
  const std::string md = read_text(c.path("out/report.md"));
  EXPECT_NE(md.find("| MASKED | masked: clock throttled |"), std::string::npos) << md;
  EXPECT_NE(md.find("| best variant | v1 |"), std::string::npos) << md;
  EXPECT_NE(
      md.find("| stop reason | stagnation: 2 rejections in a row (v2, v3): re-profile, change direction |"),
      std::string::npos)
      << md;
}

TEST_F(report_test, empty_campaign) {
  ASSERT_EQ(report().m_code, 0);
  const std::string md = read_text(c.path("out/report.md"));
  EXPECT_NE(md.find("| best variant | none accepted yet |"), std::string::npos) << md;
  EXPECT_NE(md.find("not started: no variant recorded yet"), std::string::npos) << md;
  EXPECT_NE(read_text(c.path("out/report.html")).find("no timed version yet"), std::string::npos);
}

}  // namespace
}  // namespace kopt::test
