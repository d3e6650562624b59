// kopt/scale merge_records: what `kopt merge` makes of merged family points
// with the suite's manifests: each device model's selection and sweep
// report from that model's results only (never a selection over two
// models), what could not be made named, and a suite that is not the one
// the shards ran refused.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <chrono>
#include <fstream>
#include <sstream>

#include "core/json_io.hpp"
#include "kopt/scale/merge/merge_files.hpp"
#include "kopt/scale/merge/merge_install.hpp"
#include "kopt/scale/merge/merge_plan.hpp"
#include "kopt/scale/merge/merge_records.hpp"
#include "kopt/scale/shard/shard_plan.hpp"
#include "kopt/sweep/point_result.hpp"
#include "kopt/sweep/selection.hpp"

namespace kopt::scale {
namespace {

namespace fs = std::filesystem;

class MergeRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "kopt-merge-records-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    m_dir = pattern;
    fs::create_directories(m_dir / "src");
    std::ofstream(m_dir / "src" / "tiled.cpp") << "// a family's source\n";
    manifest m;
    m.m_kernel = "k";
    m.m_path = m_dir / "build" / "kernelopt" / "k" / "manifest.json";
    m.m_records_dir = m_dir / "declared-records";  // never written: each group has its own
    m.m_shapes = {"n=1", "n=2"};
    variant_decl v;
    v.m_name = "v1";
    v.m_sources = {(m_dir / "src" / "tiled.cpp").string()};
    family_decl f;
    for (const char* p : {"v1_p0", "v1_p1", "v1_p2"}) {
      f.m_points.push_back({p, {std::string("T=") + p[4]}, std::string("k_kopt_") + p, "/b/libkopt_k_" + std::string(p) + ".so"});
    }
    v.m_family = f;
    m.m_variants = {v};
    m_suite.m_manifests = {m};
    for (const char* p : {"v1_p0", "v1_p1", "v1_p2"}) m_suite.m_units.push_back({std::string("k/") + p, "k", p, 0, "v1"});
    m_suite.m_sha256 = "suite";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }

  // A finished run of shard 0 of 1 on `model`, holding the points given
  // with their times on n=1 and n=2 (a negative time: incorrect).
  shard_input run_on(const std::string& run_id, const std::string& model,
                     const std::vector<std::tuple<std::string, double, double>>& points) {
    const fs::path dir = m_dir / "shards" / run_id;
    shard_document d;
    d.m_index = 0;
    d.m_count = 1;
    d.m_assignment = k_assignment;
    d.m_index_source = "--shard";
    d.m_status = "complete";
    d.m_run_id = run_id;
    d.m_host = "h-" + run_id;
    d.m_finished_utc = "2026-01-01T00:00:00Z";
    d.m_suite_sha256 = "suite";
    d.m_suite_units = m_suite.unit_names();
    d.m_device_model = model;
    const variant_decl& family = m_suite.m_manifests[0].m_variants[0];
    for (const auto& [name, t1, t2] : points) {
      point_result r;
      r.m_kernel = "k";
      r.m_variant = "v1";
      r.m_point = name;
      r.m_source_hash = point_source_hash(family, *family.m_family->point(name));
      r.m_build.m_status = "ok";
      r.m_correctness.m_status = t1 > 0 ? "pass" : "fail";
      if (t1 > 0) {
        r.m_bench.m_status = "ok";
        r.m_times = {{"n=1", t1, 0.01}, {"n=2", t2, 0.01}};
      }
      const std::string rel = "k/sweep/v1/" + name + ".json";
      write_json_atomic(dir / rel, to_json(r));
      unit_outcome u;
      u.m_unit = "k/" + name;
      u.m_kernel = "k";
      u.m_impl = name;
      u.m_device_model = model;
      u.m_source_sha256 = r.m_source_hash;
      u.m_correctness = r.m_correctness.m_status;
      u.m_bench = t1 > 0 ? "ok" : "not_run";
      u.m_family = "v1";
      u.m_point_file = rel;
      d.m_units.push_back(u);
    }
    return {dir, d};
  }

  fs::path m_dir;
  suite m_suite;
};

TEST_F(MergeRecords, EachDeviceModelSelectsFromItsOwnResults) {
  // On model A p0 is the fastest everywhere; on model B p1 is.
  std::vector<shard_input> inputs = {
      run_on("rA", "GPU A", {{"v1_p0", 10, 20}, {"v1_p1", 50, 60}, {"v1_p2", -1, -1}}),
      run_on("rB", "GPU B", {{"v1_p0", 50, 60}, {"v1_p1", 10, 20}, {"v1_p2", -1, -1}})};
  const merge_plan plan = plan_merge(inputs);
  ASSERT_EQ(plan.m_groups.size(), 2u);
  const fs::path out = m_dir / "merged";
  const std::vector<group_records> made = write_merge(plan, {}, out, &m_suite, 0.03);
  ASSERT_EQ(made.size(), 2u);
  const selection a = read_selection(out / "gpu-a" / "records" / "k" / "v1.selection.json");
  const selection b = read_selection(out / "gpu-b" / "records" / "k" / "v1.selection.json");
  for (const shape_selection& s : a.m_shapes) EXPECT_EQ(s.m_champion, "v1_p0") << s.m_shape;
  for (const shape_selection& s : b.m_shapes) EXPECT_EQ(s.m_champion, "v1_p1") << s.m_shape;
  ASSERT_EQ(a.m_failed.size(), 1u);
  EXPECT_EQ(a.m_failed[0].m_point, "v1_p2");
  EXPECT_TRUE(fs::exists(out / "gpu-a" / "records" / "k" / "report" / "v1.sweep.md"));
  EXPECT_TRUE(fs::exists(out / "gpu-a" / "k" / "sweep" / "v1" / "v1_p1.json"));
  EXPECT_FALSE(fs::exists(m_dir / "declared-records"));  // nothing written outside the merge
  EXPECT_EQ(made[0].m_selections.size(), 1u);
  EXPECT_NE(made[0].m_selections[0].find("v1_p0"), std::string::npos);
  // merge.json says what each group made.
  const json doc = read_json_file(out / "merge.json");
  EXPECT_EQ(doc["groups"][1]["records"]["selections"].size(), 1u);
}

TEST_F(MergeRecords, AFamilySplitOverTwoModelsIsSelectedInNeither) {
  // p2 ran only on model B, p0 and p1 only on model A: neither model has
  // every point, and no selection takes points of both.
  std::vector<shard_input> inputs = {run_on("rA", "GPU A", {{"v1_p0", 10, 20}, {"v1_p1", 50, 60}}),
                                     run_on("rB", "GPU B", {{"v1_p2", 5, 5}})};
  const merge_plan plan = plan_merge(inputs);
  EXPECT_FALSE(plan.complete());
  const fs::path out = m_dir / "merged";
  const std::vector<group_records> made = write_merge(plan, {}, out, &m_suite, 0.03);
  ASSERT_EQ(made.size(), 2u);
  for (const char* folder : {"gpu-a", "gpu-b"}) {
    EXPECT_FALSE(fs::exists(out / folder / "records" / "k" / "v1.selection.json")) << folder;
  }
  ASSERT_EQ(made[0].m_not_made.size(), 1u);
  EXPECT_NE(made[0].m_not_made[0].find("v1_p2 (no result)"), std::string::npos) << made[0].m_not_made[0];
  ASSERT_EQ(made[1].m_not_made.size(), 1u);
  EXPECT_NE(made[1].m_not_made[0].find("v1_p0 (no result)"), std::string::npos) << made[1].m_not_made[0];
}

TEST_F(MergeRecords, ManifestsOfAnotherSuiteAreRefused) {
  const merge_plan plan = plan_merge({run_on("rA", "GPU A", {{"v1_p0", 10, 20}})});
  suite other = m_suite;
  other.m_sha256 = "another";
  EXPECT_THROW(check_same_suite(other, plan), std::runtime_error);
  EXPECT_THROW((void)write_merge(plan, {}, m_dir / "merged", &other, 0.03), std::runtime_error);
  EXPECT_FALSE(fs::exists(m_dir / "merged"));
}

TEST_F(MergeRecords, NoUsablePointOnAShapeIsNamedAsUnselected) {
  // Every point ran and none is correct: complete, but no selection.
  const merge_plan plan = plan_merge({run_on("rA", "GPU A", {{"v1_p0", -1, -1}, {"v1_p1", -1, -1}, {"v1_p2", -1, -1}})});
  EXPECT_TRUE(plan.complete());
  const std::vector<group_records> made = write_merge(plan, {}, m_dir / "merged", &m_suite, 0.03);
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0].m_unselected, std::vector<std::string>{"k/v1"});
  EXPECT_TRUE(made[0].m_selections.empty());
  EXPECT_FALSE(fs::exists(m_dir / "merged" / "gpu-a" / "records" / "k" / "v1.selection.json"));
  // A made selection is not counted.
  const merge_plan good = plan_merge({run_on("rB", "GPU A", {{"v1_p0", 10, 20}, {"v1_p1", 5, 30}, {"v1_p2", -1, -1}})});
  EXPECT_TRUE(write_merge(good, {}, m_dir / "merged-good", &m_suite, 0.03)[0].m_unselected.empty());
}

TEST_F(MergeRecords, OneModelIsInstalledNamedOrAlone) {
  const merge_plan two = plan_merge({run_on("rA", "GPU A", {{"v1_p0", 10, 20}}), run_on("rB", "GPU B", {{"v1_p0", 10, 20}})});
  EXPECT_THROW((void)group_to_install(two, ""), std::invalid_argument);  // several, none named
  EXPECT_THROW((void)group_to_install(two, "GPU C"), std::invalid_argument);
  EXPECT_EQ(group_to_install(two, "GPU B").m_device_model, "GPU B");
  EXPECT_EQ(group_to_install(two, "gpu-a").m_device_model, "GPU A");  // its folder
  const merge_plan one = plan_merge({run_on("rC", "GPU A", {{"v1_p0", 10, 20}})});
  EXPECT_EQ(group_to_install(one, "").m_device_model, "GPU A");
  try {
    (void)group_to_install(two, "");
    FAIL() << "no model named";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'GPU B' (gpu-b)"), std::string::npos) << e.what();
  }
}

TEST_F(MergeRecords, InstallWritesTheSelectionAndTouchesTheStamp) {
  // (Records, their second install and a record that differs: scale.family_shards.)
  const merge_plan plan = plan_merge({run_on("rA", "GPU A", {{"v1_p0", 10, 20}, {"v1_p1", 5, 30}, {"v1_p2", -1, -1}})});
  const fs::path out = m_dir / "merged";
  (void)write_merge(plan, {}, out, &m_suite, 0.03);
  const fs::path stamp = m_suite.m_manifests[0].build_dir() / "selection.stamp";
  fs::create_directories(stamp.parent_path());
  std::ofstream(stamp) << "";
  fs::last_write_time(stamp, fs::file_time_type::clock::now() - std::chrono::hours(1));
  const auto stamp_before = fs::last_write_time(stamp);
  const fs::path records = m_dir / "installed";
  std::ostringstream err;
  const installed_records done = install_group_records(m_suite, plan.m_groups[0], out / "gpu-a", records, 0, err);
  ASSERT_EQ(done.m_written.size(), 1u);
  EXPECT_EQ(done.m_written[0], (records / "k" / "v1.selection.json").string());
  const selection s = read_selection(records / "k" / "v1.selection.json");
  EXPECT_EQ(s.m_shapes[0].m_champion, "v1_p1");
  EXPECT_EQ(s.m_shapes[1].m_champion, "v1_p0");
  EXPECT_EQ(read_json_file(records / "k" / "v1.selection.json"),
            read_json_file(out / "gpu-a" / "records" / "k" / "v1.selection.json"));
  EXPECT_TRUE(fs::exists(records / "k" / "report" / "v1.sweep.md"));
  EXPECT_TRUE(fs::exists(records / "k" / "report" / "report.md"));
  EXPECT_GT(fs::last_write_time(stamp), stamp_before);
  EXPECT_FALSE(fs::exists(m_dir / "declared-records"));  // --records-dir, not the manifest's
}

}  // namespace
}  // namespace kopt::scale
