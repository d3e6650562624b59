// kopt/sweep: the champion of each shape, the frontier within the margin,
// failed points; the build output read per point; the result files read
// back, resume decisions, and errors that name the file and the field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kopt/sweep/point_result.hpp"
#include "kopt/sweep/selection.hpp"
#include "kopt/sweep/sweep_run.hpp"

namespace kopt {
namespace {

manifest two_shapes() {
  manifest m;
  m.m_kernel = "mm";
  m.m_shapes = {"M=64", "M=128"};
  return m;
}

variant_decl family_of(const std::vector<std::string>& points) {
  variant_decl v;
  v.m_name = "v1";
  family_decl f;
  for (const std::string& p : points) f.m_points.push_back({p, {"B=" + p}, "mm_kopt_" + p, "/b/libkopt_mm_" + p + ".so"});
  v.m_family = f;
  return v;
}

point_result usable(const std::string& point, double t64, double t128) {
  point_result r;
  r.m_kernel = "mm";
  r.m_variant = "v1";
  r.m_point = point;
  r.m_build.m_status = "ok";
  r.m_correctness.m_status = "pass";
  r.m_bench.m_status = "ok";
  r.m_times = {{"M=64", t64, 0.01}, {"M=128", t128, 0.01}};
  return r;
}

TEST(selection, champion_per_shape_frontier_within_margin_and_failed_points) {
  point_result broken;
  broken.m_point = "v1_p3";
  broken.m_build = {"failed", "FAILED: mm_kopt_v1_p3.dir/x.o", 1};
  point_result wrong = usable("v1_p2", 1, 1);  // fastest, but incorrect: never a champion
  wrong.m_correctness = {"fail", "max_abs 3", 1};
  wrong.m_bench = {};
  const std::vector<point_result> results = {usable("v1_p0", 100, 500), usable("v1_p1", 102, 400), wrong, broken};
  const selection s = compute_selection(two_shapes(), family_of({"v1_p0", "v1_p1", "v1_p2", "v1_p3"}), results, 0.03);
  ASSERT_EQ(s.m_shapes.size(), 2u);
  EXPECT_EQ(s.m_shapes[0].m_champion, "v1_p0");
  EXPECT_EQ(s.m_shapes[0].m_frontier.size(), 2u);  // v1_p1 is 2 % slower: inside 3 %
  EXPECT_NEAR(s.m_shapes[0].m_frontier[1].m_ratio, 1.02, 1e-12);
  EXPECT_EQ(s.m_shapes[1].m_champion, "v1_p1");
  EXPECT_EQ(s.m_shapes[1].m_frontier.size(), 1u);  // v1_p0 is 25 % slower
  ASSERT_EQ(s.m_failed.size(), 2u);
  EXPECT_EQ(s.m_failed[0].m_point, "v1_p2");
  EXPECT_NE(s.m_failed[0].m_reason.find("correctness fail"), std::string::npos);
  EXPECT_NE(s.m_failed[1].m_reason.find("build failed"), std::string::npos);
  EXPECT_EQ(s.served_by("v1_p1"), std::vector<std::string>{"M=128"});
  // A margin of 0 keeps only the champion.
  const selection tight = compute_selection(two_shapes(), family_of({"v1_p0", "v1_p1", "v1_p2", "v1_p3"}), results, 0);
  EXPECT_EQ(tight.m_shapes[0].m_frontier.size(), 1u);
}

TEST(selection, refuses_a_point_without_result_and_a_shape_nobody_serves) {
  const variant_decl family = family_of({"v1_p0", "v1_p1"});
  EXPECT_THROW((void)compute_selection(two_shapes(), family, {usable("v1_p0", 1, 1)}, 0.03), std::runtime_error);
  point_result failed;
  failed.m_point = "v1_p1";
  failed.m_build = {"failed", "x", 0};
  point_result failed0 = failed;
  failed0.m_point = "v1_p0";
  try {
    (void)compute_selection(two_shapes(), family, {failed0, failed}, 0.03);
    FAIL() << "no usable point, yet a selection";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("no point of v1 is usable on shape M=64"), std::string::npos);
  }
}

TEST(selection, round_trips_and_names_the_field_of_a_bad_file) {
  const std::vector<point_result> results = {usable("v1_p0", 100, 500), usable("v1_p1", 102, 400)};
  const selection s = compute_selection(two_shapes(), family_of({"v1_p0", "v1_p1"}), results, 0.05);
  const json doc = to_json(s);
  EXPECT_EQ(to_json(selection_from_json(json_reader(doc, "sel.json"))), doc);
  json bad = doc;
  bad["shapes"][1].erase("champion");
  try {
    (void)selection_from_json(json_reader(bad, "sel.json"));
    FAIL() << "a shape without a champion was read";
  } catch (const format_error& error) {
    EXPECT_NE(std::string(error.what()).find("sel.json"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("/shapes/1/champion"), std::string::npos);
  }
}

TEST(point_result, finished_usable_and_bad_status) {
  point_result r;
  EXPECT_FALSE(r.finished());
  r.m_build.m_status = "failed";
  EXPECT_TRUE(r.finished());
  EXPECT_FALSE(r.usable());
  r = usable("v1_p0", 1, 2);
  EXPECT_TRUE(r.finished() && r.usable());
  r.m_bench.m_status = "not_run";  // interrupted before the benchmark: run again
  EXPECT_FALSE(r.finished());
  json doc = to_json(usable("v1_p0", 1, 2));
  EXPECT_EQ(to_json(point_result_from_json(json_reader(doc, "p.json"))), doc);
  doc["correctness"]["status"] = "maybe";
  try {
    (void)point_result_from_json(json_reader(doc, "p.json"));
    FAIL() << "an unknown status was read";
  } catch (const format_error& error) {
    EXPECT_NE(std::string(error.what()).find("/correctness/status"), std::string::npos);
  }
}

TEST(point_result, hash_changes_with_params_and_sources) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "kopt_sweep_hash";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.cpp") << "int a;";
  variant_decl v = family_of({"v1_p0", "v1_p1"});
  v.m_sources = {(dir / "a.cpp").string()};
  const std::string h0 = point_source_hash(v, v.m_family->m_points[0]);
  EXPECT_NE(h0, point_source_hash(v, v.m_family->m_points[1]));
  std::ofstream(dir / "a.cpp") << "int a = 1;";
  EXPECT_NE(h0, point_source_hash(v, v.m_family->m_points[0]));
  std::filesystem::remove_all(dir);
}

TEST(sweep_run, build_failure_is_read_per_point) {
  const point_decl p1{"v1_p1", {}, "mm_kopt_v1_p1", "/b/libkopt_mm_v1_p1.so"};
  const point_decl p10{"v1_p10", {}, "mm_kopt_v1_p10", "/b/libkopt_mm_v1_p10.so"};
  const point_decl p2{"v1_p2", {}, "mm_kopt_v1_p2", "/b/libkopt_mm_v1_p2.so"};
  const std::string ninja =
      "[1/4] Building CXX object CMakeFiles/mm_kopt_v1_p2.dir/x.cpp.o\n"
      "FAILED: CMakeFiles/mm_kopt_v1_p10.dir/x.cpp.o\n"
      "x.cpp:3: error: static assertion failed\n"
      "[2/4] Building CXX object CMakeFiles/mm_kopt_v1_p1.dir/x.cpp.o\n"
      "ninja: build stopped: cannot make progress due to previous errors.\n";
  EXPECT_EQ(point_build_failure(ninja, p1), "");
  EXPECT_EQ(point_build_failure(ninja, p2), "");
  EXPECT_EQ(point_build_failure(ninja, p10),
            "FAILED: CMakeFiles/mm_kopt_v1_p10.dir/x.cpp.o\nx.cpp:3: error: static assertion failed\n");
  const std::string make = "make[2]: *** [CMakeFiles/mm_kopt_v1_p1.dir/build.make:76: x.o] Error 1\n";
  EXPECT_NE(point_build_failure(make, p1), "");
  EXPECT_EQ(point_build_failure(make, p10), "");
}

}  // namespace
}  // namespace kopt
