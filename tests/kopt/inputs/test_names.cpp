// Names and directories that kopt reads from a manifest or a record and
// then writes under are held to the CMake name rule: a hand-edited kernel or
// variant name such as `../../../x` is an input error naming the file and
// the field, and nothing is written anywhere.
#include <gtest/gtest.h>

#include "core/json_io.hpp"
#include "kopt/inputs/names.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

TEST(names, the_cmake_rule) {
  for (const std::string& good : std::vector<std::string>{"v0", "softmax", "_x", "A_1", std::string(64, 'k')}) {
    EXPECT_TRUE(is_valid_name(good)) << good;
  }
  for (const std::string& bad : std::vector<std::string>{"", "../../../x", "..", "a/b", "/abs", "1v", "v-1", "v 1", "v\x1b[0m",
                                std::string(65, 'k')}) {
    EXPECT_FALSE(is_valid_name(bad)) << bad;
  }
}

class hostile_names : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("SOURCE_DATE_EPOCH", k_fixed_epoch, 1); }

  // Rewrites the manifest with `change` applied; its records go to
  // <case>/a/b/records, so that `../../../x` there would mean <case>/x.
  void edit_manifest(const std::function<void(json&)>& change) {
    json doc = read_json_file(c.manifest());
    doc["records_dir"] = c.path("a/b/records").string();
    change(doc);
    write_text(c.manifest(), doc.dump(2));
  }

  // Runs kopt `args`; expects exit 2 with every one of `messages` in
  // stderr, and no file added, removed or changed anywhere in the case.
  void expect_refused(const std::vector<std::string>& args, const std::vector<std::string>& messages) {
    const std::vector<std::string> before = list_files(c.dir());
    const std::string manifest_before = read_text(c.manifest());
    const run_result r = run_kopt(args);
    EXPECT_EQ(r.m_code, 2) << r.m_out << r.m_err;
    for (const std::string& message : messages) {
      EXPECT_NE(r.m_err.find(message), std::string::npos) << "expected '" << message << "' in: " << r.m_err;
    }
    EXPECT_EQ(list_files(c.dir()), before) << args[0];
    EXPECT_EQ(read_text(c.manifest()), manifest_before);
    EXPECT_FALSE(fs::exists(c.path("x"))) << args[0];
  }

  scratch_case c;
};

TEST_F(hostile_names, manifest_kernel_name_with_dot_dot_is_refused_by_every_writer) {
  edit_manifest([](json& doc) { doc["kernel"] = "../../../x"; });
  const std::vector<std::string> messages = {c.manifest() + ": /kernel: \"../../../x\" is not a valid name"};
  expect_refused({"record", "--manifest", c.manifest(), "--variant", "v0", "--correctness",
                  c.path("results/correct.v0.json").string(), "--bench", c.path("bench/bench.v0.json").string(),
                  "--env", c.path("env.json").string()},
                 messages);
  expect_refused({"report", "--manifest", c.manifest(), "--out-dir", c.path("report").string()}, messages);
  expect_refused({"mask", "--manifest", c.manifest(), "--variant", "v0", "--reason", "r"}, messages);
  expect_refused({"gate", "--manifest", c.manifest()}, messages);
}

TEST_F(hostile_names, manifest_variant_and_parent_names_are_checked) {
  edit_manifest([](json& doc) { doc["variants"][1]["name"] = "../v1"; });
  expect_refused({"report", "--manifest", c.manifest(), "--out-dir", c.path("report").string()},
                 {c.manifest() + ": /variants/1/name: \"../v1\" is not a valid name"});
  edit_manifest([](json& doc) {
    doc["variants"][1]["name"] = "v1";
    doc["variants"][1]["parent"] = "v0/../../x";
  });
  expect_refused({"report", "--manifest", c.manifest(), "--out-dir", c.path("report").string()},
                 {c.manifest() + ": /variants/1/parent: \"v0/../../x\" is not a valid name"});
}

TEST_F(hostile_names, records_dir_must_be_absolute_without_dot_dot) {
  edit_manifest([&](json& doc) { doc["records_dir"] = c.path("a/b/records/../../..").string(); });
  expect_refused({"report", "--manifest", c.manifest(), "--out-dir", c.path("report").string()},
                 {c.manifest() + ": /records_dir: ", "must be an absolute directory without '..' components"});
  edit_manifest([](json& doc) { doc["records_dir"] = "records"; });
  expect_refused({"report", "--manifest", c.manifest(), "--out-dir", c.path("report").string()},
                 {c.manifest() + ": /records_dir: \"records\" must be an absolute directory"});
}

TEST_F(hostile_names, record_kernel_name_with_dot_dot_is_refused) {
  edit_manifest([](json&) {});
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  const fs::path record = c.path("a/b/records/softmax/v0.json");
  json doc = read_json_file(record);
  doc["kernel"] = "../../../x";
  write_text(record, doc.dump(2));
  const std::vector<std::string> messages = {record.string() + ": /kernel: \"../../../x\" is not a valid name"};
  expect_refused({"report", "--manifest", c.manifest(), "--out-dir", c.path("report").string()}, messages);
  expect_refused({"optimize", "--manifest", c.manifest(), "--variant", "v1"}, messages);
  expect_refused({"mask", "--manifest", c.manifest(), "--variant", "v0", "--reason", "r"}, messages);

  doc["kernel"] = "softmax";
  doc["variant"] = "v0\n";
  write_text(record, doc.dump(2));
  expect_refused({"report", "--manifest", c.manifest(), "--out-dir", c.path("report").string()},
                 {record.string() + ": /variant: \"v0\\x0a\" is not a valid name"});
}

TEST_F(hostile_names, a_command_line_variant_never_becomes_a_path) {
  edit_manifest([](json&) {});
  expect_refused({"mask", "--manifest", c.manifest(), "--variant", "../../../x", "--reason", "r"},
                 {"has no variant '../../../x'"});
}

}  // namespace
}  // namespace kopt::test
