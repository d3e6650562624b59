// Shared by kopt's unit tests: a scratch copy of a golden case, running a
// subcommand in-process, and golden comparison.
//
// Golden files live under tests/kopt/data/<case>/expected/. After an
// intended change, rewrite them with KOPT_UPDATE_GOLDEN=1 and review the diff.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/cli/commands.hpp"

namespace kopt::test {

namespace fs = std::filesystem;

inline const fs::path k_data_dir = KOPT_TEST_DATA_DIR;
inline const fs::path k_docs_dir = KOPT_DOCS_DIR;
inline const char* const k_fixed_epoch = "1763701200";  // 2025-11-21T05:00:00Z
// Where CMake would put it: <build>/kernelopt/<kernel>/manifest.json.
inline const char* const k_manifest = "build/kernelopt/softmax/manifest.json";

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Every file under `dir` (relative paths), sorted.
inline std::vector<std::string> list_files(const fs::path& dir) {
  std::vector<std::string> files;
  if (!fs::exists(dir)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), dir).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A scratch copy of tests/kopt/data/<name> (without expected/). Its
// manifest.json goes where CMake writes manifests (k_manifest), with @DIR@
// and @HARNESS@ replaced by the copy's directory and the fake harness
// executable. Removed at the end of the test.
class scratch_case {
 public:
  explicit scratch_case(const std::string& name = "softmax") {
    std::string pattern = (fs::temp_directory_path() / "kopt-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    m_dir = pattern;
    const fs::path source = k_data_dir / name;
    for (const auto& entry : fs::recursive_directory_iterator(source)) {
      const fs::path relative = fs::relative(entry.path(), source);
      if (*relative.begin() == "expected") continue;
      if (entry.is_directory()) {
        fs::create_directories(m_dir / relative);
      } else {
        fs::copy_file(entry.path(), m_dir / relative);
      }
    }
    const std::string manifest =
        replace_all(replace_all(read_text(m_dir / "manifest.json"), "@DIR@", m_dir.string()), "@HARNESS@",
                    KOPT_FAKE_HARNESS);
    fs::remove(m_dir / "manifest.json");
    write_text(m_dir / k_manifest, manifest);
  }
  scratch_case(const scratch_case&) = delete;
  scratch_case& operator=(const scratch_case&) = delete;
  ~scratch_case() {
    std::error_code ec;
    if (std::getenv("KOPT_KEEP_TMP") == nullptr) fs::remove_all(m_dir, ec);
  }

  [[nodiscard]] const fs::path& dir() const { return m_dir; }
  [[nodiscard]] fs::path path(const std::string& relative) const { return m_dir / relative; }
  [[nodiscard]] std::string manifest() const { return (m_dir / k_manifest).string(); }
  [[nodiscard]] fs::path record(const std::string& variant) const {
    return m_dir / "records" / "softmax" / (variant + ".json");
  }

 private:
  fs::path m_dir;
};

struct run_result {
  int m_code = -1;
  std::string m_out;
  std::string m_err;
};

inline run_result run_kopt(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  run_result result;
  result.m_code = kopt::cli::dispatch(args, out, err);
  result.m_out = out.str();
  result.m_err = err.str();
  return result;
}

// kopt record for one golden variant of the softmax case.
inline run_result record_variant(const scratch_case& c, const std::string& variant, bool ceilings = true) {
  std::vector<std::string> args = {"record",
                                   "--manifest",
                                   c.manifest(),
                                   "--variant",
                                   variant,
                                   "--correctness",
                                   c.path("results/correct." + variant + ".json").string(),
                                   "--bench",
                                   c.path("bench/bench." + variant + ".json").string(),
                                   "--env",
                                   c.path("env.json").string()};
  if (ceilings) {
    args.push_back("--ceilings");
    args.push_back(c.path("ceilings.json").string());
  }
  return run_kopt(args);
}

// The golden flow: v0 (without ceilings) .. v4 recorded in order.
inline void record_golden_flow(const scratch_case& c) {
  const std::vector<std::pair<std::string, int>> expected = {
      {"v0", 0}, {"v1", 0}, {"v2", 1}, {"v3", 1}, {"v4", 0}};
  for (const auto& [variant, code] : expected) {
    const run_result r = record_variant(c, variant, variant != "v0");
    ASSERT_EQ(r.m_code, code) << variant << "\n" << r.m_out << r.m_err;
  }
}

// Compares `actual` with data/<relative>, or rewrites it under KOPT_UPDATE_GOLDEN.
inline void expect_golden(const std::string& actual, const std::string& relative) {
  const fs::path path = k_data_dir / relative;
  if (std::getenv("KOPT_UPDATE_GOLDEN") != nullptr) {
    write_text(path, actual);
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << path << " missing: run with KOPT_UPDATE_GOLDEN=1 to create it";
  EXPECT_EQ(actual, read_text(path)) << "differs from " << path
                                     << " (KOPT_UPDATE_GOLDEN=1 rewrites it after an intended change)";
}

// Fixed time for every test (utc.hpp honours SOURCE_DATE_EPOCH).
class fixed_time_environment : public ::testing::Environment {
 public:
  void SetUp() override { ::setenv("SOURCE_DATE_EPOCH", k_fixed_epoch, 1); }
};

// A --json document a command printed.
inline json parse_stdout(const std::string& text) { return parse_json_text(text, "stdout"); }

// Every --json document: its kind, schema_version 1 and the keys its
// schema in docs/formats.md promises.
inline void expect_schema(const json& doc, const std::string& kind, const std::vector<std::string>& keys,
                          int schema_version = 1) {
  EXPECT_EQ(doc.value("kind", ""), kind);
  EXPECT_EQ(doc.value("schema_version", 0), schema_version) << kind;
  for (const std::string& key : keys) EXPECT_TRUE(doc.contains(key)) << kind << " lacks " << key;
}

}  // namespace kopt::test
