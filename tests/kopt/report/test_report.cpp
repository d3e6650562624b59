// kopt report: the model (computation) and its Markdown / HTML renderings.
#include <gtest/gtest.h>

#include "kopt/inputs/manifest.hpp"
#include "kopt/records/record_store.hpp"
#include "kopt/report/notes_markdown.hpp"
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

TEST_F(report_test, numbers_per_shape_and_version) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const manifest m = read_manifest(c.manifest());
  const report_model r = build_report(m, load_records(m), "");
  EXPECT_EQ(r.m_baselines, std::vector<std::string>{"vendor"});
  ASSERT_EQ(r.m_shape_tables.size(), 2u);
  const shape_table& t = r.m_shape_tables[0];
  EXPECT_EQ(t.m_shape, "rows=4096,cols=4096");
  // v0..v4 from their own records, then the reference and the baseline timed with v4.
  ASSERT_EQ(t.m_rows.size(), 7u);
  const shape_row& v4 = t.m_rows[4];
  EXPECT_EQ(v4.m_impl, "v4");
  EXPECT_TRUE(v4.m_is_best);
  EXPECT_EQ(v4.m_median_ns, 38000.0);
  EXPECT_EQ(v4.m_p10_ns, std::optional<double>(37810.0));
  EXPECT_EQ(v4.m_p90_ns, std::optional<double>(38380.0));
  EXPECT_EQ(v4.m_noise, std::optional<double>(0.002));
  EXPECT_EQ(v4.m_ceiling, std::optional<std::string>("copy_bandwidth"));
  EXPECT_NEAR(*v4.m_pct_of_ceiling, 0.88301125, 1e-12);
  ASSERT_EQ(v4.m_vs_baselines.size(), 1u);
  EXPECT_NEAR(*v4.m_vs_baselines[0], 40000.0 / 38000.0, 1e-12);
  // v0 was recorded without ceilings: no % of ceiling, never a guess.
  EXPECT_FALSE(t.m_rows[0].m_pct_of_ceiling);
  const shape_row& vendor = t.m_rows[6];
  EXPECT_EQ(row_label(vendor), "vendor (baseline)");
  EXPECT_EQ(vendor.m_median_ns, 40000.0);
  EXPECT_FALSE(vendor.m_p10_ns);  // the record keeps no percentiles of a baseline
  EXPECT_NEAR(*vendor.m_gbps, *v4.m_gbps * 38000.0 / 40000.0, 1e-9);
  EXPECT_NEAR(*vendor.m_vs_baselines[0], 1.0, 1e-12);
  EXPECT_EQ(row_label(t.m_rows[5]), "reference");

  // The spread: the best's percentiles and the baseline's median and noise.
  ASSERT_EQ(r.m_distribution.size(), 4u);
  EXPECT_EQ(r.m_distribution[0].m_role, "best");
  EXPECT_EQ(r.m_distribution[0].m_p10_ns, std::optional<double>(37810.0));
  EXPECT_EQ(r.m_distribution[0].m_samples, 400);
  EXPECT_EQ(r.m_distribution[1].m_impl, "vendor");
  EXPECT_FALSE(r.m_distribution[1].m_p90_ns);

  // No profile: the roofline from the work model, against the measured copy bandwidth.
  ASSERT_EQ(r.m_roofline.m_dots.size(), 10u);
  for (const roofline_dot& d : r.m_roofline.m_dots) {
    EXPECT_EQ(d.m_source, "work model");
    EXPECT_EQ(d.m_is_best, d.m_impl == "v4");
  }
  EXPECT_NEAR(r.m_roofline.m_dots[8].m_intensity, 2.207528e12 / 3532.045e9, 1e-9);
  ASSERT_TRUE(r.m_roofline.m_bandwidth);
  EXPECT_EQ(r.m_roofline.m_bandwidth->m_name, "copy_bandwidth");
  EXPECT_TRUE(r.m_roofline.m_bandwidth->m_measured);
  EXPECT_FALSE(r.m_roofline.m_compute_ceiling);

  // The environment: no device in this CI env document, so unknown with its reason.
  ASSERT_EQ(r.m_runs.size(), 5u);
  EXPECT_EQ(r.m_runs[4].m_sm_clock, "unknown");
  const auto gpu = std::find_if(r.m_machine.begin(), r.m_machine.end(), [](const auto& p) { return p.first == "GPU"; });
  ASSERT_NE(gpu, r.m_machine.end());
  EXPECT_EQ(gpu->second, "unknown (KernelOpt built without CUDA)");
}

// A throttled run and a profile, as a GPU run records them.
TEST_F(report_test, throttled_clock_and_profiled_roofline) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  json doc = json::parse(read_text(c.record("v4")));
  json& shape = doc["timing"]["shapes"][0];
  shape["flags"] = json::array({"throttled"});
  shape["clock"] = {{"sm_mhz_min", 1680}, {"sm_mhz_max", 1980}, {"sm_mhz_limit", 1980}, {"throttled", true},
                    {"reasons", json::array({"sw_power_cap"})}, {"readings", 8}, {"reason", nullptr}};
  profile::profile_document profile;  // as `kopt profile` writes it, embedded through its type
  profile.m_kernel = "softmax";
  profile.m_status = "ok";
  profile::profile_run& run = profile.m_run.emplace();
  run.m_created_utc = "2026-11-24T05:00:00Z";
  profile::profiled_benchmark b;
  b.m_name = "softmax/v4/rows=4096,cols=4096";
  b.m_impl = "v4";
  b.m_shape = "rows=4096,cols=4096";
  b.m_status = "ok";
  b.m_bottleneck = "memory-bound";
  profile::roofline_point& point = b.m_roofline.emplace();
  point.m_intensity = 0.5;
  point.m_achieved_flops = 2.0e12;
  point.m_compute = {"fp32_fma", 6.0e13, "FLOP/s", "measured"};
  point.m_bandwidth = {"copy_bandwidth", 4.0e12, "B/s", "measured"};
  point.m_bound = "memory";
  b.m_compute_why = "f32";
  run.m_benchmarks = {b};
  run.m_impls = {{"v4", profile::impl_profile{"memory-bound", {}}}};
  run.m_impl = "v4";
  doc["profile"] = profile::to_json(profile);
  write_text(c.record("v4"), doc.dump(1));
  const manifest m = read_manifest(c.manifest());
  const report_model r = build_report(m, load_records(m), "");
  ASSERT_EQ(r.m_runs.size(), 5u);
  EXPECT_EQ(r.m_runs[4].m_sm_clock, "1680-1980 MHz (limit 1980)");
  EXPECT_EQ(r.m_runs[4].m_flags, std::vector<std::string>{"throttled (1 of 2 shapes: sw_power_cap)"});
  EXPECT_EQ(r.m_shape_tables[0].m_rows[4].m_flags, std::vector<std::string>{"throttled"});
  EXPECT_EQ(r.m_roofline.m_compute_ceiling, std::optional<std::string>("fp32_fma"));
  const auto profiled = std::find_if(r.m_roofline.m_dots.begin(), r.m_roofline.m_dots.end(), [](const auto& d) {
    return d.m_impl == "v4" && d.m_shape == "rows=4096,cols=4096";
  });
  ASSERT_NE(profiled, r.m_roofline.m_dots.end());
  EXPECT_EQ(profiled->m_source, "profile");
  EXPECT_EQ(profiled->m_intensity, 0.5);
  EXPECT_EQ(profiled->m_flops_per_s, 2.0e12);
  const run_result out = report();
  ASSERT_EQ(out.m_code, 0) << out.m_err;
  const std::string md = read_text(c.path("out/report.md"));
  EXPECT_NE(md.find("| v4 | host (x86_64) | unknown | unknown | 1680-1980 MHz (limit 1980) | throttled (1 of 2 shapes: "
                    "sw_power_cap) |"),
            std::string::npos)
      << md;
  EXPECT_NE(read_text(c.path("out/report.html")).find("<circle class=\"dot best\""), std::string::npos);
}

TEST(report_notes, markdown_with_tables_rendered_safely) {
  if (!notes_markdown_available()) GTEST_SKIP() << "kopt built without cmark-gfm: notes are shown as plain text";
  const std::string notes =
      "# Campaign\n\n| v | time |\n|---|---:|\n| v1 | 3 ms |\n\n"
      "Tried <b>this</b>.\n\n<script>alert(1)</script>\n\n![chart](https://example.com/x.png)\n";
  const std::string html = notes_to_html(notes);
  EXPECT_NE(html.find("<h3>Campaign</h3>"), std::string::npos) << html;
  EXPECT_NE(html.find("<table>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td align=\"right\">3 ms</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("Tried &lt;b&gt;this&lt;/b&gt;."), std::string::npos) << html;
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos) << html;
  EXPECT_EQ(html.find("<script"), std::string::npos) << html;
  EXPECT_EQ(html.find("<img"), std::string::npos) << html;  // nothing loaded
  EXPECT_NE(html.find("<a href=\"https://example.com/x.png\">chart</a>"), std::string::npos) << html;
  const std::string md = notes_to_markdown(notes);
  EXPECT_NE(md.find("### Campaign"), std::string::npos) << md;
  EXPECT_NE(md.find("Tried <b>this</b>."), std::string::npos) << md;
}

// The fallback exists in every build (notes_plain.cpp), so it is tested
// where cmark-gfm is installed too.
TEST(report_notes, plain_text_fallback_escapes_and_says_why) {
  const std::string notes = "# Campaign\n\n| v | time |\n|---|---:|\n\n<script>alert(1)</script> & more";
  const std::string html = notes_as_plain_html(notes);
  EXPECT_EQ(html.rfind("<p class=\"muted\">Notes shown as plain text: kopt was built without cmark-gfm", 0), 0u) << html;
  EXPECT_NE(html.find("<pre># Campaign\n\n| v | time |\n|---|---:|\n\n&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</pre>"),
            std::string::npos)
      << html;
  EXPECT_EQ(html.find("<script"), std::string::npos) << html;
  EXPECT_EQ(html.find("<table"), std::string::npos) << html;
  const std::string md = notes_as_plain_markdown(notes);
  EXPECT_EQ(md.rfind("_Notes shown as plain text: kopt was built without cmark-gfm", 0), 0u) << md;
  EXPECT_NE(md.find("\n\n" + notes + "\n"), std::string::npos) << md;  // verbatim, newline-terminated
}

TEST(report_notes, this_build_renders_markdown_exactly_when_it_has_cmark_gfm) {
  const std::string notes = "| v | time |\n|---|---:|\n| v1 | 3 ms |\n";
  if (notes_markdown_available()) {
    EXPECT_NE(notes_to_html(notes).find("<table>"), std::string::npos);
    EXPECT_EQ(notes_to_html(notes).find("built without cmark-gfm"), std::string::npos);
  } else {
    EXPECT_EQ(notes_to_html(notes), notes_as_plain_html(notes));
    EXPECT_EQ(notes_to_markdown(notes), notes_as_plain_markdown(notes));
  }
}

TEST_F(report_test, markdown_is_golden_and_html_is_self_contained) {
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  write_text(c.path("notes.md"), "Tried <b>vectorized</b> loads in v2; the tail was wrong.\n");
  const run_result r = report({"--notes", c.path("notes.md").string()});
  ASSERT_EQ(r.m_code, 0) << r.m_err;
  const std::string html = read_text(c.path("out/report.html"));
  // The golden files hold the notes as cmark-gfm renders them.
  const bool markdown_notes = notes_markdown_available();
  if (markdown_notes) {
    expect_golden(read_text(c.path("out/report.md")), "softmax/expected/report.md");
    expect_golden(html, "softmax/expected/report.html");
  } else {
    EXPECT_NE(read_text(c.path("out/report.md")).find("kopt was built without cmark-gfm"), std::string::npos);
    EXPECT_NE(html.find("kopt was built without cmark-gfm"), std::string::npos);
  }
  EXPECT_NE(html.find("<svg id=\"trend-chart\""), std::string::npos);
  EXPECT_NE(html.find("<table id=\"versions\">"), std::string::npos);
  for (const char* id : {"<div id=\"roofline\">", "<svg id=\"roofline-chart\"", "<svg id=\"distribution-chart\"",
                         "<table id=\"environment\">", "<table id=\"runs\">", "<div id=\"notes\">"}) {
    EXPECT_NE(html.find(id), std::string::npos) << id;
  }
  EXPECT_NE(html.find("Tried &lt;b&gt;vectorized&lt;/b&gt;"), std::string::npos);  // notes escaped
  for (const char* forbidden : {"<script", "<link", "src=", "href=", "@import", "url("}) {
    EXPECT_EQ(html.find(forbidden), std::string::npos) << forbidden;
  }
  if (!markdown_notes) GTEST_SKIP() << "golden files not compared: kopt built without cmark-gfm (notes as plain text)";
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
