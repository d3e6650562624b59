// Every malformed or missing input of `kopt record` stops it with exit 2 and
// a message naming the file (and the JSON path), and writes nothing.
#include <functional>

#include <gtest/gtest.h>

#include "core/json_io.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

// Runs `kopt record` for v0 with one input replaced by `broken`, written
// from `text`; expects exit 2, `message` in stderr, no record, no temp file.
class record_inputs_test : public ::testing::Test {
 protected:
  void expect_refused(const std::string& input, const std::string& text, const std::string& message) {
    const fs::path broken = c.path("broken.json");
    write_text(broken, text);
    std::vector<std::string> args = {"record",
                                     "--manifest",
                                     c.manifest(),
                                     "--variant",
                                     "v0",
                                     "--correctness",
                                     c.path("results/correct.v0.json").string(),
                                     "--bench",
                                     c.path("bench/bench.v0.json").string(),
                                     "--env",
                                     c.path("env.json").string()};
    if (input == "--manifest") {
      args[2] = broken.string();
    } else {
      bool replaced = false;
      for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] == input) {
          args[i + 1] = broken.string();
          replaced = true;
        }
      }
      if (!replaced) {
        args.push_back(input);
        args.push_back(broken.string());
      }
    }
    const run_result r = run_kopt(args);
    EXPECT_EQ(r.m_code, 2) << r.m_out << r.m_err;
    EXPECT_NE(r.m_err.find(message), std::string::npos) << "stderr: " << r.m_err;
    EXPECT_EQ(list_files(c.path("records")), std::vector<std::string>{});
  }

  std::string patched(const std::string& file, const std::function<void(json&)>& change) {
    json doc = read_json_file(c.path(file));
    change(doc);
    return doc.dump(2);
  }

  scratch_case c;
};

TEST_F(record_inputs_test, missing_files) {
  const run_result r =
      run_kopt({"record", "--manifest", c.manifest(), "--variant", "v0", "--correctness",
                c.path("results/none.json").string(), "--bench", c.path("bench/bench.v0.json").string()});
  EXPECT_EQ(r.m_code, 2);
  EXPECT_NE(r.m_err.find(c.path("results/none.json").string() + ": no such file"), std::string::npos)
      << r.m_err;
  const run_result m = run_kopt({"record", "--manifest", c.path("nope.json").string(), "--variant", "v0",
                                 "--correctness", "x", "--bench", "y"});
  EXPECT_EQ(m.m_code, 2);
  EXPECT_NE(m.m_err.find(c.path("nope.json").string() + ": no such file"), std::string::npos) << m.m_err;
  EXPECT_EQ(list_files(c.path("records")), std::vector<std::string>{});
}

TEST_F(record_inputs_test, bad_json) {
  expect_refused("--correctness", "{\"schema_version\": 1,,}",
                 "broken.json: invalid JSON at line 1, column 22");
  expect_refused("--bench", "[1, 2", "broken.json: invalid JSON at line 1, column 6");
  expect_refused("--manifest", "", "broken.json: invalid JSON at line 1, column 1");
}

TEST_F(record_inputs_test, missing_keys_name_file_and_path) {
  expect_refused("--manifest", patched(k_manifest, [](json& d) { d["variants"][1].erase("entry"); }),
                 "broken.json: /variants/1/entry: missing");
  expect_refused(
      "--correctness",
      patched("results/correct.v0.json", [](json& d) { d["trials"][4]["outputs"][0].erase("mismatches"); }),
      "broken.json: /trials/4/outputs/0/mismatches: missing");
  expect_refused("--bench",
                 patched("bench/bench.v0.json", [](json& d) { d["benchmarks"][1]["kopt"].erase("samples"); }),
                 "broken.json: /benchmarks/1/kopt/samples: missing");
  expect_refused("--bench", patched("bench/bench.v0.json", [](json& d) { d.erase("benchmarks"); }),
                 "broken.json: /benchmarks: missing");
  expect_refused("--ceilings", patched("ceilings.json", [](json& d) { d.erase("device"); }),
                 "broken.json: /device: missing");
}

// A family's champions (the point the built dispatch calls per shape) must be
// its points, one per declared shape.
TEST_F(record_inputs_test, family_champions_name_file_and_path) {
  const auto with_family = [this](const std::function<void(json&)>& champions) {
    return patched(k_manifest, [&](json& d) {
      json family = {{"params", {"T=1,2"}},
                     {"constraints", json::array()},
                     {"max_points", nullptr},
                     {"space", 2},
                     {"valid", 2},
                     {"points", {{{"name", "v1_p0"}, {"params", {"T=1"}}, {"target", "t0"}, {"library", "l0"}},
                                 {{"name", "v1_p1"}, {"params", {"T=2"}}, {"target", "t1"}, {"library", "l1"}}}},
                     {"build_command", {"cmake", "--build", "."}},
                     {"keep_going", json::array()},
                     {"selection", "s.json"},
                     {"sweep_dir", "sweep"},
                     {"dispatch", "softmax_v1_dispatch"}};
      champions(family);
      d["variants"][1]["family"] = family;
    });
  };
  expect_refused("--manifest", with_family([](json& f) { f["champions"] = json::array({"v1_p7"}); }),
                 "broken.json: /variants/1/family/champions/0: not a point of the family");
  expect_refused("--manifest", with_family([](json& f) { f["champions"] = json::array({"v1_p1"}); }),
                 "broken.json: /variants/1/family/champions: has 1 points; the kernel declares");
}

TEST_F(record_inputs_test, wrong_types_name_file_and_path) {
  expect_refused("--correctness",
                 patched("results/correct.v0.json", [](json& d) { d["trials"][0]["seed"] = "one"; }),
                 "broken.json: /trials/0/seed: expected an integer, got a string");
  expect_refused(
      "--bench",
      patched("bench/bench.v0.json", [](json& d) { d["benchmarks"][0]["kopt"]["median_ns"] = "fast"; }),
      "broken.json: /benchmarks/0/kopt/median_ns: expected a number, got a string");
}

// The manifest's build context (the source hash covers it) is read like
// every other field: a missing list or a wrong type names file and path.
TEST_F(record_inputs_test, build_context_names_file_and_path) {
  const auto with_context = [this](const std::function<void(json&)>& change) {
    return patched(k_manifest, [&](json& d) {
      json context = {{"compile_definitions", {"KNOB=1"}},
                      {"compile_options", json::array()},
                      {"include_directories", json::array()}};
      change(context);
      d["variants"][1]["build_context"] = context;
    });
  };
  expect_refused("--manifest", with_context([](json& c) { c.erase("include_directories"); }),
                 "broken.json: /variants/1/build_context/include_directories: missing");
  expect_refused("--manifest", with_context([](json& c) { c["compile_definitions"][0] = 1; }),
                 "broken.json: /variants/1/build_context/compile_definitions/0: expected a string, got a number");
}

TEST_F(record_inputs_test, wrong_kind_or_subject) {
  expect_refused("--correctness", read_text(c.path("env.json")),
                 "broken.json: /kind: expected \"kernelopt.correctness\", got \"kernelopt.env\"");
  expect_refused("--env", read_text(c.path("ceilings.json")),
                 "broken.json: /kind: expected \"kernelopt.env\", got \"kernelopt.ceilings\"");
  expect_refused("--manifest", read_text(c.path("env.json")),
                 "broken.json: /kind: expected \"kernelopt.manifest\", got \"kernelopt.env\"");
  expect_refused("--correctness", read_text(c.path("results/correct.v1.json")),
                 "broken.json: /variant: expected \"v0\", got \"v1\"");
  expect_refused("--correctness", patched("results/correct.v0.json", [](json& d) { d["kernel"] = "gemm"; }),
                 "broken.json: /kernel: expected \"softmax\", got \"gemm\"");
  expect_refused("--bench", patched("bench/bench.v0.json", [](json& d) { d["kopt"]["kernel"] = "gemm"; }),
                 "broken.json: /kopt/kernel: expected \"softmax\", got \"gemm\"");
  const json skipped = {{"schema_version", 1}, {"kind", "kernelopt.static"}, {"kernel", "softmax"},
                        {"variant", "v1"},     {"status", "skipped"},         {"reason", "no cuobjdump"}};
  expect_refused("--static", skipped.dump(), "broken.json: /variant: expected \"v0\", got \"v1\"");
  json other_kernel = skipped;
  other_kernel["variant"] = "v0";
  other_kernel["kernel"] = "gemm";
  expect_refused("--static", other_kernel.dump(), "broken.json: /kernel: expected \"softmax\", got \"gemm\"");
  expect_refused("--static", read_text(c.path("env.json")),
                 "broken.json: /kind: expected \"kernelopt.static\", got \"kernelopt.env\"");
}

TEST_F(record_inputs_test, newer_schema_version) {
  expect_refused("--correctness",
                 patched("results/correct.v0.json", [](json& d) { d["schema_version"] = 2; }),
                 "broken.json: /schema_version: 2 is newer than this kopt reads (1): update KernelOpt");
  expect_refused("--manifest", patched(k_manifest, [](json& d) { d["schema_version"] = 7; }),
                 "broken.json: /schema_version: 7 is newer than this kopt reads (1)");
  expect_refused("--bench", patched("bench/bench.v0.json", [](json& d) { d["kopt"]["schema_version"] = 2; }),
                 "broken.json: /kopt/schema_version: newer than this kopt reads (1)");
}

TEST_F(record_inputs_test, bench_without_the_variant) {
  expect_refused("--bench",
                 patched("bench/bench.v0.json",
                         [](json& d) {
                           json kept = json::array();
                           for (const json& b : d["benchmarks"]) {
                             if (b["kopt"]["impl"] != "v0") kept.push_back(b);
                           }
                           d["benchmarks"] = kept;
                         }),
                 "broken.json: /benchmarks: no benchmark for variant v0 (named softmax/v0/<shape>)");
  expect_refused("--bench", patched("bench/bench.v0.json", [](json& d) { d["kopt"]["mode"] = "profile"; }),
                 "broken.json: /kopt/mode: \"profile\": this file holds no timing");
}

TEST_F(record_inputs_test, unknown_variant_and_usage) {
  const run_result r = run_kopt(
      {"record", "--manifest", c.manifest(), "--variant", "v9", "--correctness", "x", "--bench", "y"});
  EXPECT_EQ(r.m_code, 2);
  EXPECT_NE(r.m_err.find("kernel softmax has no variant 'v9' (declared: v0, v1, v2, v3, v4, v5)"),
            std::string::npos)
      << r.m_err;
  const run_result u = run_kopt({"record", "--manifest", c.manifest(), "--bogus"});
  EXPECT_EQ(u.m_code, 2);
  EXPECT_NE(u.m_err.find("kopt record: unknown option --bogus\nusage: kopt record --manifest FILE"),
            std::string::npos)
      << u.m_err;
  const run_result missing = run_kopt({"record", "--manifest", c.manifest(), "--variant", "v0"});
  EXPECT_EQ(missing.m_code, 2);
  EXPECT_NE(missing.m_err.find("missing --correctness FILE"), std::string::npos) << missing.m_err;
}

TEST_F(record_inputs_test, existing_record_is_never_rewritten) {
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  const std::string before = read_text(c.record("v0"));
  const run_result again = record_variant(c, "v0");
  EXPECT_EQ(again.m_code, 2);
  EXPECT_NE(again.m_err.find("the record of v0 exists; records are never rewritten"), std::string::npos)
      << again.m_err;
  EXPECT_EQ(read_text(c.record("v0")), before);
}

TEST_F(record_inputs_test, skipped_correctness_writes_no_record) {
  ASSERT_EQ(record_variant(c, "v0").m_code, 0);
  const run_result r = run_kopt({"record", "--manifest", c.manifest(), "--variant", "v1", "--correctness",
                                 c.path("results/correct.v1.skipped.json").string(), "--bench",
                                 c.path("bench/bench.v1.json").string()});
  EXPECT_EQ(r.m_code, 77);
  EXPECT_NE(r.m_err.find("correctness skipped (no CUDA device visible: cudaErrorNoDevice)"),
            std::string::npos)
      << r.m_err;
  EXPECT_FALSE(fs::exists(c.record("v1")));
}

}  // namespace
}  // namespace kopt::test
