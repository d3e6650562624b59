// core/json_io: messages name the file and the JSON path; writes are atomic.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/json_io.hpp"

namespace kopt::test {
namespace {

namespace fs = std::filesystem;

// A temporary folder, removed at the end of the test.
class scratch_dir {
 public:
  scratch_dir() {
    std::string pattern = (fs::temp_directory_path() / "kopt-json-io-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    m_dir = pattern;
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  ~scratch_dir() {
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }
  [[nodiscard]] fs::path path(const std::string& relative) const { return m_dir / relative; }

 private:
  fs::path m_dir;
};

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Files under `dir`, relative to it, sorted.
std::vector<std::string> list_files(const fs::path& dir) {
  std::vector<std::string> files;
  if (!fs::exists(dir)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), dir).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "(no exception)";
}

TEST(json_io, missing_file_names_the_file) {
  EXPECT_EQ(message_of([] { (void)read_json_file("/nonexistent/kopt/x.json"); }),
            "/nonexistent/kopt/x.json: no such file");
}

TEST(json_io, bad_json_names_file_line_and_column) {
  scratch_dir c;
  write_text(c.path("bad.json"), "{\n  \"a\": 1,\n  \"b\": ]\n}\n");
  const std::string message = message_of([&] { (void)read_json_file(c.path("bad.json")); });
  EXPECT_NE(message.find(c.path("bad.json").string() + ": invalid JSON at line 3, column 8"),
            std::string::npos)
      << message;
}

TEST(json_io, number_overflow_names_the_file) {
  // A manifest written with TOLERANCE RTOL 1e999 (refused at configure now):
  // nlohmann reports out_of_range, not parse_error; the file is still named.
  scratch_dir c;
  write_text(c.path("huge.json"), "{\"rtol\": 1e999}\n");
  EXPECT_EQ(message_of([&] { (void)read_json_file(c.path("huge.json")); }),
            c.path("huge.json").string() + ": /rtol: number beyond the range of a double (number overflow parsing '1e999')");
}

TEST(json_io, missing_key_names_the_json_path) {
  const json doc = json::parse(R"({"shapes": [{"timing": {}}]})");
  const json_reader root(doc, "records/softmax/v1.json");
  EXPECT_EQ(message_of([&] { (void)root.at("shapes").at(0).at("timing").at("median_ns").as_number(); }),
            "records/softmax/v1.json: /shapes/0/timing/median_ns: missing");
  EXPECT_EQ(message_of([&] { (void)root.at("shapes").at(3); }),
            "records/softmax/v1.json: /shapes/3: missing (the array has 1 elements)");
}

TEST(json_io, wrong_type_names_the_json_path) {
  const json doc = json::parse(R"({"a": {"b": "x", "c": 1.5, "d/e": null}})");
  const json_reader root(doc, "f.json");
  EXPECT_EQ(message_of([&] { (void)root.at("a").at("b").as_number(); }),
            "f.json: /a/b: expected a number, got a string");
  EXPECT_EQ(message_of([&] { (void)root.at("a").at("c").as_integer(); }),
            "f.json: /a/c: expected an integer, got 1.5");
  EXPECT_EQ(message_of([&] { (void)root.at("a").at("d/e").as_string(); }),
            "f.json: /a/d~1e: expected a string, got null");
  EXPECT_FALSE(root.at("a").has("d/e"));
  EXPECT_EQ(message_of([&] { (void)root.at("a").at("b").at("x"); }),
            "f.json: /a/b: expected an object, got a string");
}

TEST(json_io, check_kind_rejects_other_kind_and_newer_version) {
  const json env = json::parse(R"({"schema_version": 1, "kind": "kernelopt.env"})");
  EXPECT_EQ(message_of([&] { check_kind(env, "e.json", "kernelopt.record", 1); }),
            "e.json: /kind: expected \"kernelopt.record\", got \"kernelopt.env\"");
  const json newer = json::parse(R"({"schema_version": 2, "kind": "kernelopt.record"})");
  EXPECT_EQ(message_of([&] { check_kind(newer, "r.json", "kernelopt.record", 1); }),
            "r.json: /schema_version: 2 is newer than this kopt reads (1): update KernelOpt");
  const json no_version = json::parse(R"({"kind": "kernelopt.record"})");
  EXPECT_EQ(message_of([&] { check_kind(no_version, "r.json", "kernelopt.record", 1); }),
            "r.json: /schema_version: missing");
  EXPECT_EQ(message_of([&] { check_kind(json::array(), "r.json", "kernelopt.record", 1); }),
            "r.json: /: expected an object, got an array");
}

TEST(json_io, atomic_write_creates_directories_and_replaces) {
  scratch_dir c;
  const fs::path target = c.path("deep/er/file.json");
  write_json_atomic(target, json{{"a", 1}});
  write_json_atomic(target, json{{"a", 2}});
  EXPECT_EQ(read_json_file(target)["a"], 2);
  EXPECT_EQ(list_files(c.path("deep")), std::vector<std::string>{"er/file.json"});
}

TEST(json_io, failed_atomic_write_leaves_no_partial_file) {
  scratch_dir c;
  // The target is a non-empty directory: the final rename fails after the
  // temp file was fully written. Nothing may be left behind.
  fs::create_directories(c.path("out/record.json/inside"));
  EXPECT_THROW(write_file_atomic(c.path("out/record.json"), "{\"partial\": true}"), std::runtime_error);
  EXPECT_EQ(list_files(c.path("out")), std::vector<std::string>{});
  // An existing file survives a failed replacement intact.
  write_text(c.path("keep/old.json"), "{\"old\": true}\n");
  fs::create_directories(c.path("keep/old.json.tmp." + std::to_string(::getpid())) / "blocker");
  EXPECT_THROW(write_file_atomic(c.path("keep/old.json"), "{\"new\": true}"), std::runtime_error);
  EXPECT_EQ(read_text(c.path("keep/old.json")), "{\"old\": true}\n");
}

}  // namespace
}  // namespace kopt::test

namespace kopt {
namespace {

// The manifest writes its tolerance keys sorted (string(JSON)); records
// written before that hold them in declaration order. Same content.
TEST(JsonIo, SameValueIgnoresMemberOrder) {
  const json sorted = json::parse(R"({"atol": 1e-20, "max_rel_l2": 1e-05, "rtol": 0.0001, "source": "TOLERANCE"})");
  const json declared = json::parse(R"({"rtol": 0.0001, "atol": 1e-20, "max_rel_l2": 1e-05, "source": "TOLERANCE"})");
  EXPECT_NE(sorted, declared);  // what a plain == of ordered json says
  EXPECT_TRUE(same_json_value(sorted, declared));
  EXPECT_TRUE(same_json_value(json::parse(R"([{"a": 1, "b": [2, {"c": 3, "d": 4}]}])"),
                              json::parse(R"([{"b": [2, {"d": 4, "c": 3}], "a": 1}])")));
  EXPECT_FALSE(same_json_value(sorted, json::parse(R"({"atol": 1e-20, "max_rel_l2": 1e-05, "rtol": 0.001, "source": "TOLERANCE"})")));
  EXPECT_FALSE(same_json_value(sorted, json::parse(R"({"atol": 1e-20, "max_rel_l2": 1e-05, "rtol": 0.0001})")));
  EXPECT_FALSE(same_json_value(json::parse("[1, 2]"), json::parse("[2, 1]")));  // arrays keep their order
  EXPECT_FALSE(same_json_value(json::parse(R"({"a": 1})"), json::parse(R"({"b": 1})")));
  EXPECT_TRUE(same_json_value(json(nullptr), json(nullptr)));
}

}  // namespace
}  // namespace kopt
